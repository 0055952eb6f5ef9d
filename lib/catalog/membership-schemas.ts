import { z } from "zod";
import { MEMBERSHIP_STATUSES } from "@/db/schema";
import { paginationMetaSchema, paginationQuerySchema } from "@/lib/http/pagination";
import { timestampOutSchema } from "./common-schemas";

export const membershipStatusSchema = z.enum(MEMBERSHIP_STATUSES);
export type MembershipStatus = z.output<typeof membershipStatusSchema>;

export const listMembershipsQuerySchema = paginationQuerySchema.extend({
  status: membershipStatusSchema.optional(),
});
export type ListMembershipsQuery = z.output<typeof listMembershipsQuerySchema>;

export const membershipSchema = z.object({
  id: z.string().describe("mem_…"),
  customer: z.object({ email: z.string(), name: z.string() }),
  plan: z.string(),
  status: membershipStatusSchema,
  starts_at: timestampOutSchema,
  ends_at: timestampOutSchema,
  created_at: timestampOutSchema,
});
export type Membership = z.output<typeof membershipSchema>;

export const membershipListSchema = z.object({ data: z.array(membershipSchema), meta: paginationMetaSchema });
