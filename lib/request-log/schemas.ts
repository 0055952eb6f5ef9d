import { z } from "zod";
import { createdRangeInOrder, createdRangeShape } from "@/lib/http/created-range";
import { paginationMetaSchema, paginationQuerySchema } from "@/lib/http/pagination";
import { fromPublicId } from "@/lib/ids";

export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];
export const LOGGED_METHODS = ["GET", "POST", "PATCH", "DELETE"] as const;

/** A request's trace id as every response's X-Trace-Id carries it: 24 hex digits. */
export const TRACE_ID = /^[0-9a-f]{24}$/;

export const listRequestLogQuerySchema = paginationQuerySchema
  .extend({
    status: z.enum(STATUS_CLASSES, `must be one of ${STATUS_CLASSES.join(", ")}`).optional(),
    key_id: z
      .string()
      .refine((text) => fromPublicId("apiKey", text) !== null, "must be an API key id (key_…)")
      .optional(),
    path: z.string().startsWith("/", "must start with /").max(500).optional(),
    method: z
      .string()
      .transform((text) => text.toUpperCase())
      .pipe(z.enum(LOGGED_METHODS, `must be one of ${LOGGED_METHODS.join(", ")}`))
      .optional(),
    ...createdRangeShape,
  })
  .refine(...createdRangeInOrder);
export type ListRequestLogQuery = z.output<typeof listRequestLogQuerySchema>;

export const requestLogEntrySchema = z.object({
  trace_id: z.string().describe("The X-Trace-Id of the response (and trace_id of an error body)"),
  method: z.string(),
  path: z.string(),
  query: z.string().describe("The query string as sent, without `?`; empty when there was none"),
  status: z.number().int(),
  duration_ms: z.number().describe("From the request reaching the API until its response was ready, in milliseconds"),
  key_id: z.string().describe("The API key (key_…) that made the request"),
  client_ip: z.string().optional().describe("The first address of X-Forwarded-For"),
  user_agent: z.string().optional(),
  request_body: z
    .string()
    .optional()
    .describe("Writes only: the JSON body with secret-like fields redacted, at most 10 KB, then cut with `…[truncated: N bytes in all]`"),
  request_body_truncated: z.boolean(),
  created_resource: z.string().optional().describe("The Location of a 201: the path of what the request created"),
  order_id: z.string().optional().describe("The order (ord_…) an order write created or changed"),
  created_at: z.iso.datetime().describe("When the request arrived"),
});
export type RequestLogEntryJson = z.output<typeof requestLogEntrySchema>;

export const requestLogListSchema = z.object({ data: z.array(requestLogEntrySchema), meta: paginationMetaSchema });
