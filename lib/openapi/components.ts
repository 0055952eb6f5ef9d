import { z } from "zod";
import { membershipSchema } from "@/lib/catalog/membership-schemas";
import { ERROR_CODES } from "@/lib/http/errors";
import { transactionOrderSchema } from "@/lib/orders/order-schemas";
import { attemptSchema } from "@/lib/webhooks/delivery-schemas";

/** The one error body every endpoint answers with (lib/http/errors.ts `apiErrorResponse`). */
export const errorBodySchema = z.object({
  error: z.string().describe("Human-readable message"),
  code: z.enum(ERROR_CODES).describe("Machine-readable code"),
  trace_id: z.string().describe("Same value as the X-Trace-Id response header"),
  details: z
    .array(z.object({ path: z.string().describe("The offending field, e.g. size or address.country"), message: z.string() }))
    .optional()
    .describe("One entry per invalid field (validation_failed only)"),
});

/** Parts of response schemas documented under their own name (lists and envelopes then point at them). */
export const COMPONENTS: [string, z.ZodType][] = [
  ["TransactionOrder", transactionOrderSchema],
  ["Membership", membershipSchema],
  ["Attempt", attemptSchema],
];
