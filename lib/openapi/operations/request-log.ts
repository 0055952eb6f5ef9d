import { defineResource } from "@/lib/http/operation";
import { listRequestLogQuerySchema, requestLogEntrySchema, requestLogListSchema, type RequestLogEntryJson } from "@/lib/request-log/schemas";
import { ORDER_EXAMPLE, onePage } from "./examples";

const REQUEST_LOG_ENTRY_EXAMPLE: RequestLogEntryJson = {
  trace_id: "5f2c9a0e7b3d41c8a6e2f017",
  method: "POST",
  path: "/v1/orders",
  query: "",
  status: 201,
  duration_ms: 18.42,
  key_id: "key_0190f0a1b2c37d4e8f9a0b1c2d3e4f60",
  client_ip: "203.0.113.7",
  user_agent: "curl/8.5.0",
  request_body: JSON.stringify({ event_id: ORDER_EXAMPLE.event_id, customer: ORDER_EXAMPLE.customer, items: [{ ticket_id: ORDER_EXAMPLE.items[0]!.ticket_id, quantity: 2 }], card_token: "[redacted]" }),
  request_body_truncated: false,
  created_resource: `/v1/orders/${ORDER_EXAMPLE.id}`,
  order_id: ORDER_EXAMPLE.id,
  created_at: ORDER_EXAMPLE.created_at,
};

export const REQUEST_LOG = defineResource(
  {
    name: "Request log",
    description:
      "Every request made with an API key, kept 30 days (REQUEST_LOG_RETENTION_DAYS): look one up by the trace_id " +
      "of its response. Written in batches within about a second of the response.",
  },
  {
    listRequestLog: {
      method: "get",
      path: "/v1/request-log",
      summary: "List logged requests",
      description:
        "A page of the organization's logged API requests, newest first. Filters combine: status class, key, path " +
        "prefix, method and time. A malformed value is a 400 naming the parameter.",
      access: { scope: "logs:read" },
      query: listRequestLogQuerySchema,
      queryNotes: {
        status: "Status class: 2xx, 3xx, 4xx or 5xx",
        key_id: "The API key (key_…) that made the requests",
        path: "Path prefix, e.g. /v1/orders",
        method: "GET, POST, PATCH or DELETE",
        created_from: "At or after this ISO 8601 date-time (with offset) or UTC date",
        created_to: "Before this ISO 8601 date-time (with offset) or UTC date (exclusive)",
      },
      response: {
        status: 200,
        description: "A page of logged requests, newest first",
        schema: requestLogListSchema,
        name: "RequestLogList",
        example: onePage(REQUEST_LOG_ENTRY_EXAMPLE),
      },
    },
    getRequestLogEntry: {
      method: "get",
      path: "/v1/request-log/{trace_id}",
      summary: "Get a logged request",
      description:
        "The request whose response carried this X-Trace-Id (or trace_id in its error body). An unknown trace id, or " +
        "one of another organization's requests, is a 404.",
      access: { scope: "logs:read" },
      params: { trace_id: "The trace id: 24 hex digits" },
      response: { status: 200, description: "The logged request", schema: requestLogEntrySchema, name: "RequestLogEntry", example: REQUEST_LOG_ENTRY_EXAMPLE },
    },
  },
);
