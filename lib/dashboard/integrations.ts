import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { notFound as nextNotFound } from "next/navigation";
import { z } from "zod";
import { db } from "@/db/client";
import { DELIVERY_STATUSES, type DeliveryStatus, organizations, webhookDeliveries, webhookIntegrations, WEBHOOK_EVENT_TYPES } from "@/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { intParam, PG_INT_MAX } from "@/lib/http/pagination";
import { fromPublicId, toPublicId } from "@/lib/ids";
import type { TransactionOrder } from "@/lib/orders/transaction-order";
import type { DeliveryJson } from "@/lib/webhooks/delivery-schemas";
import type { IntegrationJson } from "@/lib/webhooks/integrations";
import { announceDeliveries } from "@/lib/webhooks/outbox";

/** An integration as the dashboard lists it: the secret stays on the server until someone reveals it. */
export interface IntegrationRow {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  signed: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toIntegrationRow(integration: IntegrationJson): IntegrationRow {
  return {
    id: integration.id,
    url: integration.url,
    events: integration.events,
    enabled: integration.enabled,
    signed: integration.signing_secret !== undefined,
    createdAt: integration.created_at,
    updatedAt: integration.updated_at,
  };
}

/** A domain lookup whose not_found becomes the dashboard's 404 page (malformed and foreign ids alike). */
export async function orNotFound<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") nextNotFound();
    throw error;
  }
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.code === "not_found";
}

/** The create-integration form; field names match the form's inputs. */
export const createIntegrationFormSchema = z.strictObject({
  url: z.string().trim().min(1, "Enter the URL that receives the webhooks").max(2000, "At most 2000 characters"),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES), { error: "Choose at least one event" }).min(1, "Choose at least one event"),
});

const publicIdText = z.string().min(1).max(100);

export const integrationIdFormSchema = z.strictObject({ id: publicIdText });

export const setEnabledFormSchema = z.strictObject({
  id: publicIdText,
  enabled: z.enum(["true", "false"]).transform((value) => value === "true"),
});

export const deliveryIdFormSchema = z.strictObject({ id: publicIdText });

export const DELIVERIES_PER_PAGE = 25;

/** `?status=&integration_id=&page=` of the Deliveries URL; a bad value falls back to "no filter" or page 1. */
export const deliveriesPageQuerySchema = z.object({
  status: z.enum(DELIVERY_STATUSES).optional().catch(undefined),
  integration_id: publicIdText.optional().catch(undefined),
  page: intParam(1, PG_INT_MAX, 1).catch(1),
});

/** A made-up completed order in the organization's currency: what a receiver gets for a real one. */
function sampleOrder(organizationId: string, currency: string, now: Date): TransactionOrder {
  const event = toPublicId("event", "00000000-0000-4000-8000-000000000000");
  return {
    uuid: randomUUID(),
    email: "test.customer@example.com",
    customer_name: "Test Customer",
    total_price: 5000,
    payment_method: "card",
    payment_method_brand: "visa",
    is_refunded: false,
    order_number: 0,
    order_source: "dashboard_test",
    created_at: now.toISOString(),
    cart: {
      organization: toPublicId("organization", organizationId),
      event,
      currency,
      total_price: 5000,
      original_price: 5000,
      items: [
        {
          product_type: "ticket",
          name: "Test ticket",
          quantity: 2,
          price: 2500,
          vat: 10,
          event,
          event_name: "Test event",
          category: "General admission",
        },
      ],
      campaigns: [],
    },
  };
}

/**
 * "Send test delivery": a Pending OrderCompleted delivery with a sample order, written like the ones
 * order completion writes and then announced, so it runs (and retries) exactly like a real one.
 */
export async function sendTestDelivery(organizationId: string, integrationPublicId: string): Promise<string> {
  const integrationId = fromPublicId("integration", integrationPublicId);
  if (!integrationId) throw notFound("Integration");
  const deliveryId = await db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ currency: organizations.currency })
      .from(webhookIntegrations)
      .innerJoin(organizations, eq(organizations.id, webhookIntegrations.organizationId))
      .where(and(eq(webhookIntegrations.organizationId, organizationId), eq(webhookIntegrations.id, integrationId)))
      .limit(1);
    if (!owner) throw notFound("Integration");
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({
        organizationId,
        integrationId,
        eventType: "OrderCompleted",
        payload: JSON.stringify(sampleOrder(organizationId, owner.currency, new Date())),
      })
      .returning({ id: webhookDeliveries.id });
    return row!.id;
  });
  await announceDeliveries([deliveryId]);
  return toPublicId("delivery", deliveryId);
}

/** A delivery as the dashboard lists it, with its integration's URL for people (ids are for machines). */
export interface DeliveryRow {
  id: string;
  integrationId: string;
  integrationUrl: string | null;
  eventType: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextRetryAt: string | null;
  createdAt: string;
  redeliveryOf: string | null;
}

export function toDeliveryRow(delivery: DeliveryJson, integrationUrls: ReadonlyMap<string, string>): DeliveryRow {
  return {
    id: delivery.id,
    integrationId: delivery.integration_id,
    integrationUrl: integrationUrls.get(delivery.integration_id) ?? null,
    eventType: delivery.event_type,
    status: delivery.status,
    attemptCount: delivery.attempt_count,
    nextRetryAt: delivery.next_retry_at ?? null,
    createdAt: delivery.created_at,
    redeliveryOf: delivery.redelivery_of ?? null,
  };
}

/** Statuses after which nothing happens on its own any more. */
export function isFinished(status: DeliveryStatus): boolean {
  return status === "Success" || status === "PermanentlyFailed";
}
