import { defineResource } from "@/lib/http/operation";
import {
  createOrderBodySchema,
  listOrdersQuerySchema,
  orderListResponseSchema,
  orderSchema,
  refundOrderBodySchema,
} from "@/lib/orders/order-schemas";
import { ORDER_EXAMPLE, REFUNDED_ORDER_EXAMPLE, onePage } from "./examples";

const ORDER_ID = { id: "Order id (ord_…)" };

export const ORDERS = defineResource(
  { name: "Orders", description: "Orders as /v1 resources: create, read, list and refund." },
  {
    listOrders: {
      method: "get",
      path: "/v1/orders",
      summary: "List orders",
      description: "A page of the organization's orders, newest first, optionally of one event or in one status.",
      access: { scope: "orders:read" },
      query: listOrdersQuerySchema,
      queryNotes: { event_id: "Only orders of this event (evt_…)", status: "Only orders in this status" },
      response: { status: 200, description: "A page of orders", schema: orderListResponseSchema, name: "OrderList", example: onePage(ORDER_EXAMPLE) },
    },
    createOrder: {
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
      response: { status: 201, description: "The created order", schema: orderSchema, name: "Order", example: ORDER_EXAMPLE },
      location: "/v1/orders/{id}",
      conflict: "A ticket type would be oversold or is not on sale, or the event is not published.",
    },
    getOrder: {
      method: "get",
      path: "/v1/orders/{id}",
      summary: "Get an order",
      description: "One order with its customer, items, prices and refund state.",
      access: { scope: "orders:read" },
      params: ORDER_ID,
      response: { status: 200, description: "The order", schema: orderSchema, name: "Order", example: ORDER_EXAMPLE },
    },
    refundOrder: {
      method: "post",
      path: "/v1/orders/{id}/refund",
      summary: "Refund an order",
      description: "Marks a completed order refunded and releases its tickets back to the ticket types.",
      access: { scope: "orders:write" },
      params: ORDER_ID,
      body: refundOrderBodySchema,
      bodyExample: { reason: "Customer cannot attend" },
      response: { status: 200, description: "The refunded order", schema: orderSchema, name: "Order", example: REFUNDED_ORDER_EXAMPLE },
      conflict: "The order is already refunded or cancelled.",
    },
  },
);
