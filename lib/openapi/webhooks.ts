import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/db/schema/webhooks";
import { DEFAULT_TOLERANCE_SECONDS, webhookSignature } from "@/lib/webhooks/verify";
import { DELIVERY_EXAMPLE, REDELIVERY_EXAMPLE, TRANSACTIONS_EXAMPLE } from "./operations/examples";
import { PREVIOUS_SECRET_EXAMPLE, SECRET_EXAMPLE } from "./operations/webhook-integrations";

/** The OpenAPI component that is the body of every webhook: the spec 2.2 Order, as the transactions search returns it. */
export const WEBHOOK_PAYLOAD_COMPONENT = "TransactionOrder";

/**
 * How a receiver checks a delivery (lib/webhooks/verify.ts does exactly this). Said once, here: the document's
 * webhooks and the reference page both show it.
 */
export const SIGNATURE_RULE =
  "X-Webhook-Signature is `v1=` followed by the lowercase hex of HMAC-SHA256 over the string " +
  "`<X-Webhook-Timestamp>.<raw body>` (the timestamp header's digits, a dot, then the exact body bytes as received, " +
  "before any JSON parsing). The HMAC key is the whole signing secret as shown, `whsec_` prefix included, as UTF-8 " +
  "bytes: do not strip the prefix or base64-decode it. During a secret rotation's overlap the header carries one " +
  "signature per valid secret, newest first, separated by commas (`v1=<hex>,v1=<hex>`); outside an overlap it is " +
  "exactly one `v1=<hex>`. Accept the delivery when any `v1=` value equals the one you compute, comparing in " +
  `constant time. Reject it when X-Webhook-Timestamp is more than ${DEFAULT_TOLERANCE_SECONDS} seconds from your ` +
  "clock (each attempt is signed afresh, so a genuine retry is never stale). Integrations created unsigned get " +
  "neither X-Webhook-Timestamp nor X-Webhook-Signature.";

export interface WebhookHeader {
  name: string;
  description: string;
  /** Sent on every delivery of a signed integration. */
  required: boolean;
  schema: { type: "string"; pattern?: string };
}

/** Every `X-Webhook-*` header a delivery carries (lib/webhooks/attempt.ts `deliveryHeaders`). */
export const WEBHOOK_HEADERS: WebhookHeader[] = [
  {
    name: "X-Webhook-Delivery-ID",
    description: "The delivery's id (`dlv_…`), the same on every attempt of it: deduplicate on it (delivery is at least once).",
    required: true,
    schema: { type: "string", pattern: "^dlv_" },
  },
  {
    name: "X-Webhook-Event-Type",
    description: "The event, equal to this webhook's name. Check it before processing.",
    required: true,
    schema: { type: "string", pattern: `^(${WEBHOOK_EVENT_TYPES.join("|")})$` },
  },
  {
    name: "X-Webhook-Attempt",
    description: "The attempt number, 1 to 5.",
    required: true,
    schema: { type: "string", pattern: "^[1-5]$" },
  },
  {
    name: "X-Webhook-Timestamp",
    description: "Unix time in seconds when this attempt was signed; part of the signed string. Absent for unsigned integrations.",
    required: false,
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
  {
    name: "X-Webhook-Signature",
    description: "`v1=<hex>`, or `v1=<hex>,v1=<hex>` (newest secret first) during a rotation's overlap; see the signature rule. Absent for unsigned integrations.",
    required: false,
    schema: { type: "string", pattern: "^v1=[0-9a-f]{64}(,v1=[0-9a-f]{64})*$" },
  },
  {
    name: "X-Webhook-Redelivery-Of",
    description: "Only on a redelivery (dashboard Redeliver, `POST /webhooks/deliveries/{id}/redeliver`, bulk recovery): the id of the delivery it repeats. The redelivery has its own X-Webhook-Delivery-ID.",
    required: false,
    schema: { type: "string", pattern: "^dlv_" },
  },
];

interface WebhookEvent {
  summary: string;
  fires: string;
  example: typeof TRANSACTIONS_EXAMPLE.data.orders[number];
}

const ORDER = TRANSACTIONS_EXAMPLE.data.orders[0]!;

/** One entry per event type (the record's type makes a new event type fail to compile until it is described). */
export const WEBHOOK_EVENTS: Record<WebhookEventType, WebhookEvent> = {
  OrderCompleted: {
    summary: "An order was completed",
    fires: "Sent to each enabled integration subscribed to OrderCompleted when an order is completed (`POST /v1/orders`, or a dashboard test delivery).",
    example: ORDER,
  },
  OrderRefunded: {
    summary: "An order was refunded",
    fires:
      "Opt-in. Sent to each enabled integration subscribed to OrderRefunded when an order is refunded: `POST /v1/orders/{id}/refund`, the dashboard's refund, or the cancellation or deletion of its event (one delivery per order).",
    example: { ...ORDER, is_refunded: true },
  },
};

/** The headers of one example attempt, signed with the example secrets during an overlap: a receiver can check its code against them. */
export function exampleWebhookHeaders(eventType: WebhookEventType): Record<string, string> {
  const timestamp = "1777897800";
  const body = JSON.stringify(WEBHOOK_EVENTS[eventType].example);
  const signature = [SECRET_EXAMPLE, PREVIOUS_SECRET_EXAMPLE].map((secret) => webhookSignature(secret, timestamp, body)).join(",");
  return {
    "X-Webhook-Delivery-ID": REDELIVERY_EXAMPLE.id,
    "X-Webhook-Event-Type": eventType,
    "X-Webhook-Attempt": "1",
    "X-Webhook-Timestamp": timestamp,
    "X-Webhook-Signature": signature,
    "X-Webhook-Redelivery-Of": DELIVERY_EXAMPLE.id,
  };
}

/** The document's top-level `webhooks` (OpenAPI 3.1): one POST per event, sent to the integration's URL. */
export function webhooksSection(tag: string) {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((eventType) => {
      const event = WEBHOOK_EVENTS[eventType];
      const headers = exampleWebhookHeaders(eventType);
      return [
        eventType,
        {
          post: {
            operationId: `${eventType[0]!.toLowerCase()}${eventType.slice(1)}Webhook`,
            tags: [tag],
            summary: event.summary,
            description: `${event.fires} The body is the order (TransactionOrder, as the transactions search returns it) as it stood when the event happened.\n\nSignature: ${SIGNATURE_RULE}`,
            // Sent by the service to the receiver, which authenticates it by its signature, not by a credential.
            security: [],
            parameters: WEBHOOK_HEADERS.map((header) => ({
              name: header.name,
              in: "header",
              required: header.required,
              description: header.description,
              schema: header.schema,
              example: headers[header.name],
            })),
            requestBody: {
              required: true,
              content: { "application/json": { schema: { $ref: `#/components/schemas/${WEBHOOK_PAYLOAD_COMPONENT}` }, example: event.example } },
            },
            responses: {
              "2XX": { description: "Any 2xx within 30 seconds (5 to connect) acknowledges the delivery; the body is ignored." },
              default: {
                description:
                  "Any other answer, a redirect, a timeout or a connection error is a failed attempt: it is retried, up to 5 attempts in all, then the delivery is PermanentlyFailed.",
              },
            },
          },
        },
      ];
    }),
  );
}
