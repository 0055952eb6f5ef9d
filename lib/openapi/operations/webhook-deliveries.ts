import { defineResource } from "@/lib/http/operation";
import {
  attemptListSchema,
  deliveryDetailSchema,
  deliveryListSchema,
  deliverySchema,
  listDeliveriesQuerySchema,
} from "@/lib/webhooks/delivery-schemas";
import { ATTEMPTS_EXAMPLE, DELIVERY_DETAIL_EXAMPLE, DELIVERY_EXAMPLE, REDELIVERY_EXAMPLE, onePage } from "./examples";

const DELIVERY_ID = { id: "Delivery id (dlv_…)" };

export const WEBHOOK_DELIVERIES = defineResource(
  { name: "Webhook deliveries", description: "Inspection of OrderCompleted webhook deliveries; dashboard users only." },
  {
    listDeliveries: {
      method: "get",
      path: "/webhooks/deliveries",
      summary: "List webhook deliveries",
      description:
        "A page of the organization's deliveries, newest first. Filters combine: status (one or more, comma separated), " +
        "integration, event type, order (id or number) and creation time. An unknown or other organization's " +
        "integration or order matches nothing; a malformed value is a 400 naming the parameter.",
      access: { dashboard: "deliveries" },
      query: listDeliveriesQuerySchema,
      queryNotes: {
        status: "One or more of Pending, InProgress, Success, Failed, PermanentlyFailed, comma separated",
        integration_id: "Integration id (int_…)",
        event_type: "Event type, e.g. OrderCompleted",
        order_id: "The /v1 order id (ord_…) or the order number",
        created_from: "Created at or after this ISO 8601 date-time (with offset) or UTC date",
        created_to: "Created before this ISO 8601 date-time (with offset) or UTC date (exclusive)",
      },
      response: { status: 200, description: "A page of deliveries, newest first", schema: deliveryListSchema, name: "DeliveryList", example: onePage(DELIVERY_EXAMPLE) },
    },
    getDelivery: {
      method: "get",
      path: "/webhooks/deliveries/{id}",
      summary: "Get a webhook delivery",
      description:
        "Status, attempt count and retry schedule (next_retry_at), the payload exactly as sent, the /v1 order id " +
        "(absent for test deliveries), and the redelivery links both ways (redelivery_of, redeliveries).",
      access: { dashboard: "deliveries" },
      params: DELIVERY_ID,
      response: { status: 200, description: "The delivery", schema: deliveryDetailSchema, name: "DeliveryDetail", example: DELIVERY_DETAIL_EXAMPLE },
    },
    listDeliveryAttempts: {
      method: "get",
      path: "/webhooks/deliveries/{id}/attempts",
      summary: "List the attempts of a delivery",
      description:
        "Each attempt's request as sent (URL, method, every header including the signature; never a secret) and its " +
        "response: status code, headers (at most 20, values cut at 500 characters), body (at most 5000 characters), " +
        "start time, duration and error message.",
      access: { dashboard: "deliveries" },
      params: DELIVERY_ID,
      response: { status: 200, description: "Every attempt, first to last", schema: attemptListSchema, name: "AttemptList", example: ATTEMPTS_EXAMPLE },
    },
    redeliverDelivery: {
      method: "post",
      path: "/webhooks/deliveries/{id}/redeliver",
      summary: "Redeliver a webhook",
      description:
        "Queues a new delivery of the same payload with its own X-Webhook-Delivery-ID; redelivery_of names the original, " +
        "which lists it in redeliveries, and each attempt carries X-Webhook-Redelivery-Of: <original delivery id>.",
      access: { dashboard: "deliveries" },
      params: DELIVERY_ID,
      response: { status: 201, description: "The new delivery", schema: deliverySchema, name: "Delivery", example: REDELIVERY_EXAMPLE },
      location: "/webhooks/deliveries/{id}",
    },
  },
);
