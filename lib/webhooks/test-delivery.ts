import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { db } from "@/db/client";
import { organizations, webhookDeliveries, webhookIntegrations } from "@/db/schema";
import { notFound } from "@/lib/http/errors";
import { fromPublicId, toPublicId } from "@/lib/ids";
import type { TransactionOrder } from "@/lib/orders/transaction-order";
import { announceDeliveries } from "./outbox";

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
      .where(and(eq(webhookIntegrations.organizationId, organizationId), eq(webhookIntegrations.id, integrationId), isNull(webhookIntegrations.deletedAt)))
      .limit(1);
    if (!owner) throw notFound("Integration");
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({
        organizationId,
        integrationId,
        eventType: "OrderCompleted",
        payload: JSON.stringify(sampleOrder(organizationId, owner.currency, new Date())),
        test: true,
      })
      .returning({ id: webhookDeliveries.id });
    return row!.id;
  });
  await announceDeliveries([deliveryId]);
  return toPublicId("delivery", deliveryId);
}
