import { z } from "zod";
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type DeliveryStatus } from "@/db/schema";
import { createdRangeInOrder, createdRangeShape } from "@/lib/http/created-range";
import { paginationMetaSchema, paginationQuerySchema } from "@/lib/http/pagination";
import { fromPublicId } from "@/lib/ids";

const statusList = (text: string) => text.split(",").map((part) => part.trim());
const isDeliveryStatus = (text: string): text is DeliveryStatus => (DELIVERY_STATUSES as readonly string[]).includes(text);

export const listDeliveriesQuerySchema = paginationQuerySchema
  .extend({
    // One or more statuses, comma separated: `status=Failed,PermanentlyFailed`.
    status: z
      .string()
      .refine((text) => statusList(text).every(isDeliveryStatus), `must be one or more of ${DELIVERY_STATUSES.join(", ")}, comma separated`)
      .transform((text) => [...new Set(statusList(text))] as DeliveryStatus[])
      .optional(),
    integration_id: z.string().min(1).optional(),
    event_type: z.enum(WEBHOOK_EVENT_TYPES).optional(),
    order_id: z
      .string()
      .refine((text) => /^\d{1,9}$/.test(text) || fromPublicId("order", text) !== null, "must be an order id (ord_…) or an order number")
      .optional(),
    ...createdRangeShape,
  })
  .refine(...createdRangeInOrder);
export type ListDeliveriesQuery = z.output<typeof listDeliveriesQuerySchema>;

export const deliverySchema = z.object({
  id: z.string(),
  integration_id: z.string(),
  event_type: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempt_count: z.number().int(),
  next_retry_at: z.iso.datetime().optional(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  last_attempt_at: z.iso.datetime().optional(),
  order_id: z.string().optional().describe("The /v1 order id; absent for test deliveries (and once the order is deleted)"),
  test: z.boolean().describe("True for a dashboard test delivery with a sample order"),
  redelivery_of: z.string().optional(),
});
export type DeliveryJson = z.output<typeof deliverySchema>;

export const deliveryDetailSchema = deliverySchema.extend({
  payload: z.record(z.string(), z.unknown()).describe("The JSON object sent as the request body, identical on every attempt"),
  redeliveries: z.array(z.string()).describe("Ids of the deliveries that resent this one, oldest first"),
});
export type DeliveryDetailJson = z.output<typeof deliveryDetailSchema>;

export const deliveryListSchema = z.object({
  data: z.array(deliverySchema),
  meta: paginationMetaSchema,
});

const headersSchema = z.record(z.string(), z.string());

export const attemptSchema = z.object({
  attempt_number: z.number().int(),
  request_url: z.string().optional(),
  request_method: z.string().optional(),
  request_headers: headersSchema.optional().describe("Every header sent, signature headers included; absent when nothing was sent"),
  started_at: z.iso.datetime().optional(),
  status_code: z.number().int().optional(),
  response_headers: headersSchema.optional().describe("At most 20 response headers, values cut at 500 characters"),
  response_body: z.string().optional(),
  duration_ms: z.number().int(),
  error_message: z.string().optional(),
  created_at: z.iso.datetime(),
});
export type AttemptJson = z.output<typeof attemptSchema>;

export const attemptListSchema = z.object({ data: z.array(attemptSchema) });
