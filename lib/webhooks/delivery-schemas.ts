import { z } from "zod";
import { DELIVERY_STATUSES } from "@/db/schema";
import { paginationMetaSchema, paginationQuerySchema } from "@/lib/http/pagination";

export const listDeliveriesQuerySchema = paginationQuerySchema.extend({
  status: z.enum(DELIVERY_STATUSES).optional(),
  integration_id: z.string().min(1).optional(),
});
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
  redelivery_of: z.string().optional(),
});
export type DeliveryJson = z.output<typeof deliverySchema>;

export const deliveryListSchema = z.object({
  data: z.array(deliverySchema),
  meta: paginationMetaSchema,
});

export const attemptSchema = z.object({
  attempt_number: z.number().int(),
  status_code: z.number().int().optional(),
  response_body: z.string().optional(),
  duration_ms: z.number().int(),
  error_message: z.string().optional(),
  created_at: z.iso.datetime(),
});
export type AttemptJson = z.output<typeof attemptSchema>;

export const attemptListSchema = z.object({ data: z.array(attemptSchema) });
