import { sql } from "drizzle-orm";
import { rowsOf, type Transaction } from "@/db/client";
import { webhookDeliveries, type WebhookEventType } from "@/db/schema";
import { inngest } from "@/inngest/client";
import { inProcessDriver } from "@/inngest/embedded";
import { deliveryCreatedEvent, type DeliveryState } from "@/inngest/events";
import { deliveriesInWorker, inngestCloudMode } from "@/lib/env";
import { loadTransactionOrders } from "@/lib/orders/transaction-order";
import { log } from "@/lib/log";
import { deliveryStates } from "./delivery-queue";
import { withIntegrationHealth } from "./failing-integrations";

/**
 * Called inside the transaction that changes the orders: one Pending delivery per enabled integration
 * subscribed to the event and per order, holding the exact body to send (the order as it stands in this
 * transaction), so a committed change cannot lose its webhook. Returns the ids to announce after commit.
 */
export async function recordOrderEvent(
  tx: Transaction,
  organizationId: string,
  eventType: WebhookEventType,
  orderIds: string[],
): Promise<string[]> {
  if (orderIds.length === 0) return [];
  const integrationIds = rowsOf<{ ids: string[] }>(
    await tx.execute(sql`select subscribed_integrations(${organizationId}, ${eventType}) as ids`),
  )[0]!.ids;
  if (integrationIds.length === 0) return [];
  const loaded = await loadTransactionOrders(tx, organizationId, orderIds);
  if (loaded.length !== orderIds.length) throw new Error(`Orders ${orderIds.join(", ")} not all found in organization ${organizationId}`);
  // One delivery per integration and order, each holding the order's JSON as its body.
  const values = loaded.flatMap((order) => {
    const payload = JSON.stringify(order);
    return integrationIds.map((integrationId) => ({ organizationId, integrationId, eventType, orderId: order.uuid, payload }));
  });
  const inserted = await tx.insert(webhookDeliveries).values(values).returning({ id: webhookDeliveries.id });
  return inserted.map((row) => row.id);
}

/**
 * After commit: starts the delivery function for each delivery (see deliveryCreatedEvent for the event id
 * that keeps repeats to one run). Never throws; a send that is lost (database or Inngest unreachable,
 * crash) is picked up by the sweeper because the delivery stays unfinished.
 */
export async function announceDeliveries(deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length) await announce(deliveryIds.length, () => deliveryStates(deliveryIds));
}

/** announceDeliveries for deliveries whose states the caller has from writing them (place_order, createOrder). */
export async function announceDeliveryStates(states: DeliveryState[]): Promise<void> {
  if (states.length) await announce(states.length, async () => states);
}

async function announce(count: number, statesOf: () => Promise<DeliveryState[]>): Promise<void> {
  try {
    const states = await withIntegrationHealth(statesOf());
    // Without Inngest keys the events go to the embedded engine, which starts with the first of them (unless
    // it runs in the delivery worker).
    if (!inngestCloudMode && !deliveriesInWorker) inProcessDriver();
    if (states.length) await inngest.send(states.map(deliveryCreatedEvent));
  } catch (error) {
    log.warn("webhook delivery announcement failed; the sweeper will retry", { deliveries: count, error: String(error) });
  }
}
