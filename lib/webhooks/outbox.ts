import { and, arrayContains, eq } from "drizzle-orm";
import type { Transaction } from "@/db/client";
import { webhookDeliveries, webhookIntegrations } from "@/db/schema";
import { inngest } from "@/inngest/client";
import { inProcessDriver } from "@/inngest/embedded";
import { deliveryCreatedEvent } from "@/inngest/events";
import { inngestCloudMode } from "@/lib/env";
import { loadTransactionOrders } from "@/lib/orders/transaction-order";
import { log } from "@/lib/log";
import { deliveryStates } from "./delivery-queue";

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
 * After commit: starts the delivery function for each delivery (see deliveryCreatedEvent for the event id
 * that keeps repeats to one run). Never throws; a send that is lost (database or Inngest unreachable,
 * crash) is picked up by the sweeper because the delivery stays unfinished.
 */
export async function announceDeliveries(deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  try {
    const states = await deliveryStates(deliveryIds);
    // Without Inngest keys the events go to the embedded engine, which starts with the first of them.
    if (!inngestCloudMode) inProcessDriver();
    if (states.length) await inngest.send(states.map(deliveryCreatedEvent));
  } catch (error) {
    log.warn("webhook delivery announcement failed; the sweeper will retry", { deliveries: deliveryIds.length, error: String(error) });
  }
}
