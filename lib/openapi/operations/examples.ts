/**
 * Response bodies as the API answers them, one per resource, for the document's examples and the reference
 * page (the OpenAPI tests parse each with its operation's response schema).
 */

const CREATED_AT = "2026-03-01T09:00:00.000Z";

export const VENUE_EXAMPLE = {
  id: "ven_0190f0a1b2c37d4e8f9a0b1c2d3e4f50",
  name: "Stockholm Arena",
  address: { street: "Arenavägen 1", city: "Stockholm", postal_code: "121 77", country: "SE" },
  capacity: 16_000,
  created_at: CREATED_AT,
};

export const EVENT_EXAMPLE = {
  id: "evt_0190f0a1b2c37d4e8f9a0b1c2d3e4f51",
  name: "Summer Festival",
  description: "Three stages, one night.",
  status: "published",
  starts_at: "2026-07-01T18:00:00.000Z",
  ends_at: "2026-07-02T02:00:00.000Z",
  has_ended: false,
  venue: { id: VENUE_EXAMPLE.id, name: VENUE_EXAMPLE.name },
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
};

export const TICKET_TYPE_EXAMPLE = {
  id: "tkt_0190f0a1b2c37d4e8f9a0b1c2d3e4f52",
  event_id: EVENT_EXAMPLE.id,
  name: "General admission",
  category: "Admission",
  price: 49_500,
  currency: "SEK",
  vat: 6,
  quantity_total: 1_000,
  quantity_sold: 2,
  status: "on_sale",
  sale_starts_at: CREATED_AT,
  sale_ends_at: "2026-07-01T18:00:00.000Z",
  created_at: CREATED_AT,
};

export const ORDER_EXAMPLE = {
  id: "ord_0190f0a1b2c37d4e8f9a0b1c2d3e4f53",
  status: "completed",
  total: 89_100,
  original_price: 99_000,
  currency: "SEK",
  order_number: 1042,
  event_id: EVENT_EXAMPLE.id,
  items: [{ ticket_id: TICKET_TYPE_EXAMPLE.id, ticket_name: "General admission", quantity: 2, unit_price: 49_500 }],
  customer: { email: "anna.berg@example.com", name: "Anna Berg", phone_number: "+46701234567" },
  created_at: "2026-05-04T12:30:00.000Z",
};

export const REFUNDED_ORDER_EXAMPLE = {
  ...ORDER_EXAMPLE,
  status: "refunded",
  refund_reason: "Customer cannot attend",
  refunded_at: "2026-05-06T08:15:00.000Z",
};

export const TRANSACTIONS_EXAMPLE = {
  data: {
    total_count: 1,
    orders: [
      {
        uuid: "0190f0a1-b2c3-7d4e-8f9a-0b1c2d3e4f53",
        email: "anna.berg@example.com",
        phone_number: "+46701234567",
        customer_name: "Anna Berg",
        total_price: 89_100,
        payment_method: "card",
        payment_method_brand: "visa",
        is_refunded: false,
        order_number: 1042,
        order_source: "web",
        created_at: "2026-05-04T12:30:00.000Z",
        cart: {
          organization: "org_0190f0a1b2c37d4e8f9a0b1c2d3e4f40",
          event: EVENT_EXAMPLE.id,
          currency: "SEK",
          total_price: 89_100,
          original_price: 99_000,
          items: [
            {
              product_type: "ticket",
              name: "General admission",
              quantity: 2,
              price: 49_500,
              vat: 6,
              event: EVENT_EXAMPLE.id,
              event_name: "Summer Festival",
              category: "Admission",
            },
          ],
          campaigns: [{ uuid: "0190f0a1-b2c3-7d4e-8f9a-0b1c2d3e4f60", name: "Early bird", code: "EARLYBIRD", discount_amount: 9_900 }],
        },
      },
    ],
  },
  trace_id: "5f2c9a0e7b3d41c8a6e2f017",
};

export const MEMBERSHIPS_EXAMPLE = {
  data: [
    {
      id: "mem_0190f0a1b2c37d4e8f9a0b1c2d3e4f54",
      customer: { email: "anna.berg@example.com", name: "Anna Berg" },
      plan: "Gold",
      status: "active",
      starts_at: "2026-01-01T00:00:00.000Z",
      ends_at: "2027-01-01T00:00:00.000Z",
      created_at: "2025-12-20T10:00:00.000Z",
    },
  ],
  meta: { page: 1, per_page: 25, total: 1 },
};

export const DELIVERY_EXAMPLE = {
  id: "dlv_0190f0a1b2c37d4e8f9a0b1c2d3e4f55",
  integration_id: "int_0190f0a1b2c37d4e8f9a0b1c2d3e4f56",
  event_type: "OrderCompleted",
  status: "Success",
  attempt_count: 1,
  created_at: "2026-05-04T12:30:00.000Z",
  updated_at: "2026-05-04T12:30:01.000Z",
  last_attempt_at: "2026-05-04T12:30:01.000Z",
  order_id: ORDER_EXAMPLE.id,
  test: false,
};

export const REDELIVERY_EXAMPLE = {
  id: "dlv_0190f0a1b2c37d4e8f9a0b1c2d3e4f57",
  integration_id: DELIVERY_EXAMPLE.integration_id,
  event_type: "OrderCompleted",
  status: "Pending",
  attempt_count: 0,
  created_at: "2026-05-05T09:00:00.000Z",
  updated_at: "2026-05-05T09:00:00.000Z",
  order_id: ORDER_EXAMPLE.id,
  test: false,
  redelivery_of: DELIVERY_EXAMPLE.id,
};

export const DELIVERY_DETAIL_EXAMPLE = {
  ...DELIVERY_EXAMPLE,
  payload: TRANSACTIONS_EXAMPLE.data.orders[0],
  redeliveries: [REDELIVERY_EXAMPLE.id],
};

export const ATTEMPTS_EXAMPLE = {
  data: [
    {
      attempt_number: 1,
      request_url: "https://hooks.example.com/ticketing",
      request_method: "POST",
      request_headers: {
        "Content-Type": "application/json",
        "X-Webhook-Delivery-ID": DELIVERY_EXAMPLE.id,
        "X-Webhook-Event-Type": "OrderCompleted",
        "X-Webhook-Attempt": "1",
        "X-Webhook-Timestamp": "1777897800",
        "X-Webhook-Signature": "v1=5f8b0c3e6a1d4f2b9c7e0a3d6f1b4e7c2a5d8f0b3e6c9a2d5f8b1e4c7a0d3f6b",
        "Content-Length": "912",
        "User-Agent": "ticketing-webhooks/1",
      },
      started_at: "2026-05-04T12:30:00.916Z",
      status_code: 200,
      response_headers: { "content-type": "text/plain; charset=utf-8", "content-length": "2" },
      response_body: "ok",
      duration_ms: 84,
      created_at: "2026-05-04T12:30:01.000Z",
    },
  ],
};

/** A first page holding one item. */
export const onePage = <T>(item: T) => ({ data: [item], meta: { page: 1, per_page: 25, total: 1 } });

export const SUMMARY_EXAMPLE = {
  data: {
    groups: [
      { key: "2026-05-04", label: "2026-05-04", orders: 2, tickets: 3, revenue: 138_600, refunded_orders: 1, refunded_amount: 49_500 },
      { key: "2026-05-05", label: "2026-05-05", orders: 0, tickets: 0, revenue: 0, refunded_orders: 0, refunded_amount: 0 },
    ],
    totals: { orders: 2, tickets: 3, revenue: 138_600, refunded_orders: 1, refunded_amount: 49_500 },
    currency: "SEK",
  },
  trace_id: "0a1b2c3d4e5f60718293a4b5",
};

const EXPORT_ORDER = {
  order_number: 1042,
  order_uuid: "0190f0a1-b2c3-7d4e-8f9a-0b1c2d3e4f53",
  created_at: "2026-05-04T12:30:00.000Z",
  event_id: EVENT_EXAMPLE.id,
  event_name: EVENT_EXAMPLE.name,
  customer_name: "Anna Berg",
  email: "anna.berg@example.com",
};

/** The start of an export: the header row and the first order (the remaining columns are in the README). */
export const EXPORT_CSV_EXAMPLE = `${Object.keys(EXPORT_ORDER).join(",")},…\r\n${Object.values(EXPORT_ORDER).join(",")},…\r\n`;
export const EXPORT_JSONL_EXAMPLE = `${JSON.stringify(EXPORT_ORDER).slice(0, -1)},…}\n`;
