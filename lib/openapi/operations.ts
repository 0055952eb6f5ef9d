import { z } from "zod";
import {
  createEventSchema,
  eventListSchema,
  eventSchema,
  listEventsQuerySchema,
  updateEventSchema,
} from "@/lib/catalog/event-schemas";
import { listMembershipsQuerySchema, membershipListSchema, membershipSchema } from "@/lib/catalog/membership-schemas";
import {
  createTicketTypeSchema,
  ticketTypeListSchema,
  ticketTypeSchema,
  updateTicketTypeSchema,
} from "@/lib/catalog/ticket-type-schemas";
import { createVenueSchema, updateVenueSchema, venueListSchema, venueSchema } from "@/lib/catalog/venue-schemas";
import { exportQuerySchema } from "@/lib/analytics/export-schemas";
import { summaryQuerySchema, summaryResponseSchema } from "@/lib/analytics/summary-schemas";
import type { ErrorCode } from "@/lib/http/errors";
import type { Access } from "@/lib/http/route";
import {
  createOrderBodySchema,
  listOrdersQuerySchema,
  orderListResponseSchema,
  orderSchema,
  refundOrderBodySchema,
  transactionOrderSchema,
  transactionsQuerySchema,
  transactionsResponseSchema,
} from "@/lib/orders/order-schemas";
import {
  attemptListSchema,
  attemptSchema,
  deliveryListSchema,
  deliverySchema,
  listDeliveriesQuerySchema,
} from "@/lib/webhooks/delivery-schemas";

// A record (not a list) so the compiler refuses to build when an ErrorCode is added without being documented.
const ERROR_CODE_SET: Record<ErrorCode, true> = {
  validation_failed: true,
  invalid_json: true,
  unauthorized: true,
  forbidden: true,
  not_found: true,
  method_not_allowed: true,
  conflict: true,
  payload_too_large: true,
  unsupported_media_type: true,
  rate_limited: true,
  internal: true,
  service_unavailable: true,
};

/** The one error body every endpoint answers with (lib/http/route.ts `errorResponse`). */
export const errorBodySchema = z.object({
  error: z.string().describe("Human-readable message"),
  code: z.enum(Object.keys(ERROR_CODE_SET) as [ErrorCode, ...ErrorCode[]]).describe("Machine-readable code"),
  trace_id: z.string().describe("Same value as the X-Trace-Id response header"),
  details: z
    .array(z.object({ path: z.string().describe("The offending field, e.g. size or address.country"), message: z.string() }))
    .optional()
    .describe("One entry per invalid field (validation_failed only)"),
});

export type HttpMethod = "get" | "post" | "patch" | "delete";

export interface Operation {
  operationId: string;
  /** Resource group: the OpenAPI tag and a section of the reference page. */
  resource: string;
  method: HttpMethod;
  /** OpenAPI form, path parameters as `{name}` (the names of the route folders). */
  path: string;
  summary: string;
  description?: string;
  access: Access;
  /** Description of each path parameter, keyed by the names in `path`. */
  params?: Record<string, string>;
  query?: z.ZodType;
  /** What a query parameter means, where its schema carries no description. */
  queryNotes?: Record<string, string>;
  body?: z.ZodType;
  /** A request body the endpoint accepts, shown on the reference page (tests parse it with `body`). */
  bodyExample?: unknown;
  response: { status: 200 | 201 | 204; description: string; schema?: z.ZodType; name?: string };
  /** When the operation answers 409, beyond an Idempotency-Key reused with another body. */
  conflict?: string;
}

/** Parts of response schemas documented under their own name (lists and envelopes then point at them). */
export const COMPONENTS: [string, z.ZodType][] = [
  ["TransactionOrder", transactionOrderSchema],
  ["Membership", membershipSchema],
  ["Attempt", attemptSchema],
];

export interface Resource {
  name: string;
  description: string;
}

export const RESOURCES: Resource[] = [
  { name: "Transactions", description: "Search over every order of the organization (spec 4.1), in the transactions model of spec 2.2." },
  { name: "Orders", description: "Orders as /v1 resources (spec 2.3, 4.2)." },
  { name: "Venues", description: "Places events happen at (spec 2.4, 4.3)." },
  { name: "Events", description: "Events and their status transitions (spec 2.5, 3.2, 4.4)." },
  { name: "Ticket types", description: "What an event sells; status is derived from the sale window and stock (spec 2.6, 4.5)." },
  { name: "Memberships", description: "Membership members of the organization." },
  { name: "Webhook deliveries", description: "Inspection of OrderCompleted webhook deliveries (spec 4.6); dashboard user JWT only." },
];

const EVENT_EXAMPLE = {
  name: "Summer Festival",
  description: "Three stages, one night.",
  starts_at: "2026-07-01T18:00:00Z",
  ends_at: "2026-07-02T02:00:00Z",
  venue_id: "ven_0190f0a1b2c37d4e8f9a0b1c2d3e4f50",
  status: "published",
};

const TICKET_TYPE_EXAMPLE = {
  name: "General admission",
  price: 49_500,
  currency: "SEK",
  quantity_total: 1_000,
  sale_starts_at: "2026-03-01T09:00:00Z",
  sale_ends_at: "2026-07-01T18:00:00Z",
  category: "Admission",
  vat: 6,
};

const ORDER_ID = { id: "Order id (ord_…)" };
const VENUE_ID = { id: "Venue id (ven_…)" };
const EVENT_ID = { event_id: "Event id (evt_…)" };
const DELIVERY_ID = { id: "Delivery id (dlv_…)" };

/** What the transactions filters mean, for the search, its summary and its export. */
const TRANSACTION_FILTER_NOTES = {
  date_from: "Inclusive lower bound on created_at; a bare date means the start of that UTC day",
  date_to: "Inclusive upper bound on created_at; a bare date covers that whole UTC day",
  event_id: "Only orders of this event (evt_…)",
  is_refunded: "Only refunded (true) or only not refunded (false) orders",
  order_source: "Only orders from this channel (order_source, exact)",
  payment_method: "Only orders paid with this payment method (exact)",
};
const Q_NOTE = "Case-insensitive match on customer email, name or phone, or an exact order number";
const SORT_NOTE = "date (created_at), price (total_price) or customer_name (case-insensitive)";

/** Every operation of the API: the source of the OpenAPI document and of the reference page. */
export const OPERATIONS: Operation[] = [
  {
    operationId: "searchTransactions",
    resource: "Transactions",
    method: "get",
    path: "/analytics_search/api/transactions",
    summary: "Search transactions",
    description:
      "Pages through the organization's orders with a total, stable ordering (ties broken by order uuid). " +
      "total_count is exact for the filters; pages remaining = ceil(total_count / size).",
    access: { scope: "orders:read" },
    query: transactionsQuerySchema,
    queryNotes: {
      size: "Orders per page",
      from: "Offset into the result set",
      sort: SORT_NOTE,
      q: Q_NOTE,
      ...TRANSACTION_FILTER_NOTES,
    },
    response: { status: 200, description: "The transactions envelope (spec 2.1)", schema: transactionsResponseSchema, name: "TransactionsResponse" },
  },
  {
    operationId: "summarizeTransactions",
    resource: "Transactions",
    method: "get",
    path: "/analytics_search/api/summary",
    summary: "Summarize transactions",
    description:
      "Orders, tickets (sum of cart item quantities), revenue (sum of total_price, refunded orders included) and refunds " +
      "of the orders the transactions search returns for the same filters, grouped. Money in minor units. Time buckets are " +
      "UTC (weeks start on Monday) and contiguous, empty ones with zeros; other groups list only keys with orders, by revenue. " +
      "Grouped by ticket_type, an order counts under each type it holds and revenue is the items' unit price × quantity.",
    access: { scope: "orders:read" },
    query: summaryQuerySchema,
    queryNotes: {
      group_by: "day, week, month, event, ticket_type, order_source or payment_method",
      ...TRANSACTION_FILTER_NOTES,
      event_id: "Only orders of this event (evt_…); an id that is not one of the organization's events is a 400",
    },
    response: { status: 200, description: "Figures per group and in total", schema: summaryResponseSchema, name: "TransactionsSummary" },
  },
  {
    operationId: "exportTransactions",
    resource: "Transactions",
    method: "get",
    path: "/analytics_search/api/transactions/export",
    summary: "Export transactions",
    description:
      "Every order the transactions search matches, in its sort order, streamed as a download (Content-Disposition: " +
      "attachment): CSV (RFC 4180, UTF-8, header row, CRLF) or JSON Lines. Money in minor units, timestamps ISO 8601 UTC. " +
      "CSV cells starting with = + - @, tab or carriage return get a leading ' so spreadsheets do not run them. " +
      "Counts as one request for the rate limit. The columns are listed in the README (Export columns).",
    access: { scope: "orders:read" },
    query: exportQuerySchema,
    queryNotes: {
      sort: SORT_NOTE,
      q: Q_NOTE,
      ...TRANSACTION_FILTER_NOTES,
      format: "csv (default) or jsonl",
      rows: "orders (default): one row per order; items: one row per cart item",
    },
    response: { status: 200, description: "text/csv or application/x-ndjson, streamed" },
  },
  {
    operationId: "listOrders",
    resource: "Orders",
    method: "get",
    path: "/v1/orders",
    summary: "List orders",
    access: { scope: "orders:read" },
    query: listOrdersQuerySchema,
    queryNotes: { event_id: "Only orders of this event (evt_…)", status: "Only orders in this status" },
    response: { status: 200, description: "A page of orders", schema: orderListResponseSchema, name: "OrderList" },
  },
  {
    operationId: "createOrder",
    resource: "Orders",
    method: "post",
    path: "/v1/orders",
    summary: "Create a completed order",
    description:
      "Prices come from the ticket types, a campaign discount is applied (original_price before it, total " +
      "after it), VAT is recorded per item, quantity_sold grows atomically, and OrderCompleted webhooks fire.",
    access: { scope: "orders:write" },
    body: createOrderBodySchema,
    bodyExample: {
      event_id: "evt_0190f0a1b2c37d4e8f9a0b1c2d3e4f51",
      customer: { email: "anna.berg@example.com", name: "Anna Berg", phone_number: "+46701234567" },
      items: [{ ticket_id: "tkt_0190f0a1b2c37d4e8f9a0b1c2d3e4f52", quantity: 2 }],
      campaign_code: "EARLYBIRD",
      payment_method: "card",
      payment_method_brand: "visa",
      order_source: "web",
    },
    response: { status: 201, description: "The created order", schema: orderSchema, name: "Order" },
    conflict: "A ticket type would be oversold or is not on sale, or the event is not published.",
  },
  {
    operationId: "getOrder",
    resource: "Orders",
    method: "get",
    path: "/v1/orders/{id}",
    summary: "Get an order",
    access: { scope: "orders:read" },
    params: ORDER_ID,
    response: { status: 200, description: "The order", schema: orderSchema, name: "Order" },
  },
  {
    operationId: "refundOrder",
    resource: "Orders",
    method: "post",
    path: "/v1/orders/{id}/refund",
    summary: "Refund an order",
    description: "Marks a completed order refunded and releases its tickets back to the ticket types.",
    access: { scope: "orders:write" },
    params: ORDER_ID,
    body: refundOrderBodySchema,
    bodyExample: { reason: "Customer cannot attend" },
    response: { status: 200, description: "The refunded order", schema: orderSchema, name: "Order" },
    conflict: "The order is already refunded or cancelled.",
  },
  {
    operationId: "listVenues",
    resource: "Venues",
    method: "get",
    path: "/v1/venues",
    summary: "List venues",
    access: { scope: "venues:read" },
    response: { status: 200, description: "Every venue of the organization", schema: venueListSchema, name: "VenueList" },
  },
  {
    operationId: "createVenue",
    resource: "Venues",
    method: "post",
    path: "/v1/venues",
    summary: "Create a venue",
    access: { scope: "venues:write" },
    body: createVenueSchema,
    bodyExample: {
      name: "Stockholm Arena",
      address: { street: "Arenavägen 1", city: "Stockholm", postal_code: "121 77", country: "SE" },
      capacity: 16_000,
    },
    response: { status: 201, description: "The created venue", schema: venueSchema, name: "Venue" },
  },
  {
    operationId: "getVenue",
    resource: "Venues",
    method: "get",
    path: "/v1/venues/{id}",
    summary: "Get a venue",
    access: { scope: "venues:read" },
    params: VENUE_ID,
    response: { status: 200, description: "The venue", schema: venueSchema, name: "Venue" },
  },
  {
    operationId: "updateVenue",
    resource: "Venues",
    method: "patch",
    path: "/v1/venues/{id}",
    summary: "Update a venue",
    description: "Any subset of the fields; address members given are merged into the stored address.",
    access: { scope: "venues:write" },
    params: VENUE_ID,
    body: updateVenueSchema,
    bodyExample: { capacity: 18_000, address: { postal_code: "121 78" } },
    response: { status: 200, description: "The updated venue", schema: venueSchema, name: "Venue" },
  },
  {
    operationId: "deleteVenue",
    resource: "Venues",
    method: "delete",
    path: "/v1/venues/{id}",
    summary: "Delete a venue",
    access: { scope: "venues:write" },
    params: VENUE_ID,
    response: { status: 204, description: "Deleted" },
    conflict: "An event that is not deleted still uses the venue.",
  },
  {
    operationId: "listEvents",
    resource: "Events",
    method: "get",
    path: "/v1/events",
    summary: "List events",
    access: { scope: "events:read" },
    query: listEventsQuerySchema,
    response: { status: 200, description: "A page of events", schema: eventListSchema, name: "EventList" },
  },
  {
    operationId: "createEvent",
    resource: "Events",
    method: "post",
    path: "/v1/events",
    summary: "Create an event",
    description: "starts_at must be before ends_at; venue_id must be a venue of the organization (else 400).",
    access: { scope: "events:write" },
    body: createEventSchema,
    bodyExample: EVENT_EXAMPLE,
    response: { status: 201, description: "The created event", schema: eventSchema, name: "Event" },
  },
  {
    operationId: "getEvent",
    resource: "Events",
    method: "get",
    path: "/v1/events/{event_id}",
    summary: "Get an event",
    access: { scope: "events:read" },
    params: EVENT_ID,
    response: { status: 200, description: "The event", schema: eventSchema, name: "Event" },
  },
  {
    operationId: "updateEvent",
    resource: "Events",
    method: "patch",
    path: "/v1/events/{event_id}",
    summary: "Update an event",
    description:
      "Any subset of the fields. Status transitions: draft→published, draft→cancelled, published→cancelled. " +
      "Cancelling cancels the ticket types and refunds every completed order (reason event_cancelled) but keeps the event readable.",
    access: { scope: "events:write" },
    params: EVENT_ID,
    body: updateEventSchema,
    bodyExample: { status: "cancelled" },
    response: { status: 200, description: "The updated event", schema: eventSchema, name: "Event" },
    conflict: "A status transition that is not allowed (anything out of cancelled).",
  },
  {
    operationId: "deleteEvent",
    resource: "Events",
    method: "delete",
    path: "/v1/events/{event_id}",
    summary: "Delete an event",
    description:
      "Irreversible, in one transaction: the event disappears from every read, its ticket types become cancelled " +
      "and every completed order of the event is refunded with reason event_deleted.",
    access: { scope: "events:write" },
    params: EVENT_ID,
    response: { status: 204, description: "Deleted" },
  },
  {
    operationId: "listTicketTypes",
    resource: "Ticket types",
    method: "get",
    path: "/v1/events/{event_id}/tickets",
    summary: "List the ticket types of an event",
    access: { scope: "events:read" },
    params: EVENT_ID,
    response: { status: 200, description: "Every ticket type of the event", schema: ticketTypeListSchema, name: "TicketTypeList" },
  },
  {
    operationId: "createTicketType",
    resource: "Ticket types",
    method: "post",
    path: "/v1/events/{event_id}/tickets",
    summary: "Create a ticket type",
    access: { scope: "events:write" },
    params: EVENT_ID,
    body: createTicketTypeSchema,
    bodyExample: TICKET_TYPE_EXAMPLE,
    response: { status: 201, description: "The created ticket type", schema: ticketTypeSchema, name: "TicketType" },
  },
  {
    operationId: "updateTicketType",
    resource: "Ticket types",
    method: "patch",
    path: "/v1/events/{event_id}/tickets/{ticket_id}",
    summary: "Update a ticket type",
    description: "Any subset of the fields; quantity_sold is read-only.",
    access: { scope: "events:write" },
    params: { ...EVENT_ID, ticket_id: "Ticket type id (tkt_…)" },
    body: updateTicketTypeSchema,
    bodyExample: { price: 54_500, quantity_total: 1_200 },
    response: { status: 200, description: "The updated ticket type", schema: ticketTypeSchema, name: "TicketType" },
    conflict: "quantity_total would go below quantity_sold.",
  },
  {
    operationId: "deleteTicketType",
    resource: "Ticket types",
    method: "delete",
    path: "/v1/events/{event_id}/tickets/{ticket_id}",
    summary: "Delete a ticket type",
    access: { scope: "events:write" },
    params: { ...EVENT_ID, ticket_id: "Ticket type id (tkt_…)" },
    response: { status: 204, description: "Deleted" },
    conflict: "Tickets of this type have been sold.",
  },
  {
    operationId: "listMemberships",
    resource: "Memberships",
    method: "get",
    path: "/v1/memberships",
    summary: "List memberships",
    description: "Also granted by the customers:read scope.",
    access: { scope: "memberships:read" },
    query: listMembershipsQuerySchema,
    response: { status: 200, description: "A page of memberships", schema: membershipListSchema, name: "MembershipList" },
  },
  {
    operationId: "listDeliveries",
    resource: "Webhook deliveries",
    method: "get",
    path: "/webhooks/deliveries",
    summary: "List webhook deliveries",
    access: { dashboard: true },
    query: listDeliveriesQuerySchema,
    response: { status: 200, description: "A page of deliveries, newest first", schema: deliveryListSchema, name: "DeliveryList" },
  },
  {
    operationId: "getDelivery",
    resource: "Webhook deliveries",
    method: "get",
    path: "/webhooks/deliveries/{id}",
    summary: "Get a webhook delivery",
    description: "Status, attempt count and retry schedule (next_retry_at).",
    access: { dashboard: true },
    params: DELIVERY_ID,
    response: { status: 200, description: "The delivery", schema: deliverySchema, name: "Delivery" },
  },
  {
    operationId: "listDeliveryAttempts",
    resource: "Webhook deliveries",
    method: "get",
    path: "/webhooks/deliveries/{id}/attempts",
    summary: "List the attempts of a delivery",
    description: "HTTP status code, response body (at most 5000 characters), duration and error message of each attempt.",
    access: { dashboard: true },
    params: DELIVERY_ID,
    response: { status: 200, description: "Every attempt, first to last", schema: attemptListSchema, name: "AttemptList" },
  },
  {
    operationId: "redeliverDelivery",
    resource: "Webhook deliveries",
    method: "post",
    path: "/webhooks/deliveries/{id}/redeliver",
    summary: "Redeliver a webhook",
    description: "Queues a new delivery of the same payload (redelivery_of names the original).",
    access: { dashboard: true },
    params: DELIVERY_ID,
    response: { status: 201, description: "The new delivery", schema: deliverySchema, name: "Delivery" },
  },
];
