import { defineResource } from "@/lib/http/operation";
import { deliverySchema } from "@/lib/webhooks/delivery-schemas";
import {
  createIntegrationSchema,
  integrationListSchema,
  integrationSchema,
  integrationSecretSchema,
  integrationWithSecretSchema,
  recoverSchema,
  recoverySchema,
  rotateSecretSchema,
  updateIntegrationSchema,
} from "@/lib/webhooks/integration-schemas";
import { DELIVERY_EXAMPLE } from "./examples";

const INTEGRATION_ID = { id: "Integration id (int_…)" };

const INTEGRATION_EXAMPLE = {
  id: DELIVERY_EXAMPLE.integration_id,
  url: "https://hooks.example.com/ticketing",
  events: ["OrderCompleted", "OrderRefunded"],
  description: "Accounting sync",
  enabled: true,
  signed: true,
  retry_schedule: "immediate",
  created_at: "2026-05-01T08:00:00.000Z",
  updated_at: "2026-05-01T08:00:00.000Z",
};
export const SECRET_EXAMPLE = "whsec_3q2-7wR1b8Jm0cXyZ4kLpN5sT6uV9aB2cD3eF4gH5iJ";
export const PREVIOUS_SECRET_EXAMPLE = "whsec_Qm8pN2xV7rT4sL1kJ6hG3fD9aZ0cX5bV8nM2wE4rT6y";

export const WEBHOOK_INTEGRATIONS = defineResource(
  { name: "Webhook integrations", description: "The organization's webhook endpoints, their events and signing secrets; dashboard users only." },
  {
    listIntegrations: {
      method: "get",
      path: "/webhooks/integrations",
      summary: "List webhook integrations",
      description: "Every integration of the organization, newest first, without secrets.",
      access: { dashboard: "integrations" },
      response: { status: 200, description: "Every integration", schema: integrationListSchema, name: "IntegrationList", example: { data: [INTEGRATION_EXAMPLE] } },
    },
    createIntegration: {
      method: "post",
      path: "/webhooks/integrations",
      summary: "Create a webhook integration",
      description:
        "An https endpoint (no credentials, no private addresses) and its events (OrderCompleted by default; OrderRefunded is opt-in). The answer carries the signing secret.",
      access: { dashboard: "integrations" },
      body: createIntegrationSchema,
      bodyExample: { url: INTEGRATION_EXAMPLE.url, events: INTEGRATION_EXAMPLE.events, description: INTEGRATION_EXAMPLE.description },
      response: { status: 201, description: "The created integration with its signing secret", schema: integrationWithSecretSchema, name: "IntegrationWithSecret", example: { ...INTEGRATION_EXAMPLE, signing_secret: SECRET_EXAMPLE } },
      location: "/webhooks/integrations/{id}",
    },
    getIntegration: {
      method: "get",
      path: "/webhooks/integrations/{id}",
      summary: "Get a webhook integration",
      description: "One integration, without its secret.",
      access: { dashboard: "integrations" },
      params: INTEGRATION_ID,
      response: { status: 200, description: "The integration", schema: integrationSchema, name: "Integration", example: INTEGRATION_EXAMPLE },
    },
    updateIntegration: {
      method: "patch",
      path: "/webhooks/integrations/{id}",
      summary: "Update a webhook integration",
      description: "Any subset of url (checked like on create), events, description, enabled and retry_schedule.",
      access: { dashboard: "integrations" },
      params: INTEGRATION_ID,
      body: updateIntegrationSchema,
      bodyExample: { url: "https://hooks.example.com/v2/ticketing", events: ["OrderCompleted"] },
      response: { status: 200, description: "The updated integration", schema: integrationSchema, name: "Integration", example: { ...INTEGRATION_EXAMPLE, url: "https://hooks.example.com/v2/ticketing", events: ["OrderCompleted"] } },
    },
    deleteIntegration: {
      method: "delete",
      path: "/webhooks/integrations/{id}",
      summary: "Delete a webhook integration",
      description:
        "No further attempts are made; unfinished deliveries end PermanentlyFailed with the error \"integration deleted\". Its delivery history stays readable.",
      access: { dashboard: "integrations" },
      params: INTEGRATION_ID,
      response: { status: 204, description: "Deleted" },
    },
    rotateIntegrationSecret: {
      method: "post",
      path: "/webhooks/integrations/{id}/rotate-secret",
      summary: "Rotate the signing secret",
      description:
        "A new secret signs from the next attempt on. expire_previous_in (seconds, 0 to 604800 = 7 days, default 0) keeps the previous secret signing too until then: X-Webhook-Signature carries one v1= signature per valid secret, newest first.",
      access: { dashboard: "integrations" },
      params: INTEGRATION_ID,
      body: rotateSecretSchema,
      bodyExample: { expire_previous_in: 86_400 },
      response: {
        status: 200,
        description: "The integration with its new secret",
        schema: integrationWithSecretSchema,
        name: "IntegrationWithSecret",
        example: { ...INTEGRATION_EXAMPLE, signing_secret: SECRET_EXAMPLE, previous_secret_expires_at: "2026-05-02T08:00:00.000Z" },
      },
    },
    getIntegrationSecret: {
      method: "get",
      path: "/webhooks/integrations/{id}/secret",
      summary: "Reveal the signing secret",
      description: "The current secret, and during a rotation's overlap the previous one with its expiry.",
      conflict: "The integration is unsigned (update it to give it a secret)",
      access: { dashboard: "integrations" },
      params: INTEGRATION_ID,
      response: {
        status: 200,
        description: "The signing secrets",
        schema: integrationSecretSchema,
        name: "IntegrationSecret",
        example: { signing_secret: SECRET_EXAMPLE, previous_signing_secret: PREVIOUS_SECRET_EXAMPLE, previous_secret_expires_at: "2026-05-02T08:00:00.000Z" },
      },
    },
    sendTestDelivery: {
      method: "post",
      path: "/webhooks/integrations/{id}/test",
      summary: "Send a test delivery",
      description: "Queues an OrderCompleted delivery of a sample order, sent, signed and retried like a real one.",
      access: { dashboard: "integrations" },
      params: INTEGRATION_ID,
      response: { status: 201, description: "The test delivery", schema: deliverySchema, name: "Delivery", example: { ...DELIVERY_EXAMPLE, status: "Pending", attempt_count: 0 } },
      location: "/webhooks/deliveries/{id}",
    },
    recoverDeliveries: {
      method: "post",
      path: "/webhooks/integrations/{id}/recover",
      summary: "Recover failed deliveries",
      description:
        "Queues one redelivery of every PermanentlyFailed delivery of the integration created in [since, until) (until defaults to now) that has no redelivery yet; calling again for the same window queues nothing twice. The call is recorded as one recovery (its id in the answer) that the integration page follows until its redeliveries finish. At most 10,000 per call: more is a 400 saying how many matched.",
      access: { dashboard: "deliveries" },
      params: INTEGRATION_ID,
      body: recoverSchema,
      bodyExample: { since: "2026-05-04T02:00:00Z", until: "2026-05-04T04:00:00Z" },
      response: { status: 200, description: "How many redeliveries were queued", schema: recoverySchema, name: "Recovery", example: { id: "rcv_0190f0a1b2c37d4e8f9a0b1c2d3e4f70", queued: 42 } },
    },
  },
);
