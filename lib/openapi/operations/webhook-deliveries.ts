import { defineResource } from "@/lib/http/operation";
import { attemptListSchema, deliveryListSchema, deliverySchema, listDeliveriesQuerySchema } from "@/lib/webhooks/delivery-schemas";
import { ATTEMPTS_EXAMPLE, DELIVERY_EXAMPLE, REDELIVERY_EXAMPLE, onePage } from "./examples";

const DELIVERY_ID = { id: "Delivery id (dlv_…)" };

export const WEBHOOK_DELIVERIES = defineResource(
  { name: "Webhook deliveries", description: "Inspection of OrderCompleted webhook deliveries; dashboard users only." },
  {
    listDeliveries: {
      method: "get",
      path: "/webhooks/deliveries",
      summary: "List webhook deliveries",
      description: "A page of the organization's deliveries, newest first, optionally in one status or to one integration.",
      access: { dashboard: "deliveries" },
      query: listDeliveriesQuerySchema,
      response: { status: 200, description: "A page of deliveries, newest first", schema: deliveryListSchema, name: "DeliveryList", example: onePage(DELIVERY_EXAMPLE) },
    },
    getDelivery: {
      method: "get",
      path: "/webhooks/deliveries/{id}",
      summary: "Get a webhook delivery",
      description: "Status, attempt count and retry schedule (next_retry_at).",
      access: { dashboard: "deliveries" },
      params: DELIVERY_ID,
      response: { status: 200, description: "The delivery", schema: deliverySchema, name: "Delivery", example: DELIVERY_EXAMPLE },
    },
    listDeliveryAttempts: {
      method: "get",
      path: "/webhooks/deliveries/{id}/attempts",
      summary: "List the attempts of a delivery",
      description: "HTTP status code, response body (at most 5000 characters), duration and error message of each attempt.",
      access: { dashboard: "deliveries" },
      params: DELIVERY_ID,
      response: { status: 200, description: "Every attempt, first to last", schema: attemptListSchema, name: "AttemptList", example: ATTEMPTS_EXAMPLE },
    },
    redeliverDelivery: {
      method: "post",
      path: "/webhooks/deliveries/{id}/redeliver",
      summary: "Redeliver a webhook",
      description: "Queues a new delivery of the same payload (redelivery_of names the original).",
      access: { dashboard: "deliveries" },
      params: DELIVERY_ID,
      response: { status: 201, description: "The new delivery", schema: deliverySchema, name: "Delivery", example: REDELIVERY_EXAMPLE },
      location: "/webhooks/deliveries/{id}",
    },
  },
);
