import { and, arrayContains, eq, inArray } from "drizzle-orm";
import { db, type Transaction } from "@/db/client";
import { webhookDeliveries, webhookIntegrations } from "@/db/schema";
import { inngest } from "@/inngest/client";
import { loadTransactionOrders } from "@/lib/orders/transaction-order";
import { log } from "@/lib/log";

export const DELIVERY_CREATED_EVENT = "webhook/delivery.created";

/**
 * Called inside the transaction that completes an order: one Pending delivery per enabled integration
 * subscribed to OrderCompleted, holding the exact body to send, so a committed order cannot lose its webhook.
 */
export async function recordOrderCompleted(tx: Transaction, organizationId: string, orderId: string): Promise<string[]> {
  const integrations = await tx
    .select({ id: webhookIntegrations.id })
    .from(webhookIntegrations)
    .where(
      and(
        eq(webhookIntegrations.organizationId, organizationId),
        eq(webhookIntegrations.enabled, true),
        arrayContains(webhookIntegrations.events, ["OrderCompleted"]),
      ),
    );
  if (integrations.length === 0) return [];
  const [order] = await loadTransactionOrders(tx, organizationId, [orderId]);
  if (!order) throw new Error(`Order ${orderId} not found in organization ${organizationId}`);
  const payload = JSON.stringify(order);
  const rows = await tx
    .insert(webhookDeliveries)
    .values(integrations.map((i) => ({ organizationId, integrationId: i.id, eventType: "OrderCompleted" as const, orderId, payload })))
    .returning({ id: webhookDeliveries.id });
  return rows.map((r) => r.id);
}

/**
 * After commit: starts the delivery function for each delivery, keyed by its integration so that one
 * slow or dead receiver only ever holds its own share of delivery runs. Never throws; a send that is lost
 * (database or Inngest unreachable, crash) is picked up by the sweeper because the delivery stays unfinished.
 */
export async function announceDeliveries(deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  try {
    const rows = await db
      .select({ deliveryId: webhookDeliveries.id, integrationId: webhookDeliveries.integrationId })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, deliveryIds));
    if (rows.length) await inngest.send(rows.map((data) => ({ name: DELIVERY_CREATED_EVENT, data })));
  } catch (error) {
    log.warn("webhook delivery announcement failed; the sweeper will retry", { deliveries: deliveryIds.length, error: String(error) });
  }
}
