import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { db } from "@/db/client";
import { events, orders, venues, webhookAttempts, webhookDeliveries } from "@/db/schema";
import { fromPublicId } from "@/lib/ids";
import { announceDeliveries, recordOrderEvent } from "@/lib/webhooks/outbox";

let orderNumber = 1000;

/**
 * Completes an order the way the order path does (rows and outbox in one transaction, announcement
 * after commit), with the rows inserted directly so webhook tests need no catalog set-up.
 */
export async function completeOrder(organizationId: string): Promise<{ orderId: string; deliveryIds: string[] }> {
  const { orderId, deliveryIds } = await db.transaction(async (tx) => {
    const [venue] = await tx
      .insert(venues)
      .values({ organizationId, name: "Hall", street: "Street 1", city: "Stockholm", postalCode: "111 57", country: "SE", capacity: 100 })
      .returning();
    const [event] = await tx
      .insert(events)
      .values({ organizationId, venueId: venue!.id, name: "Concert", status: "published", startsAt: new Date(Date.now() + 86_400_000), endsAt: new Date(Date.now() + 90_000_000) })
      .returning();
    const [order] = await tx
      .insert(orders)
      .values({
        organizationId,
        eventId: event!.id,
        orderNumber: orderNumber++,
        status: "completed",
        customerEmail: "buyer@example.test",
        customerName: "Åsa Öberg",
        paymentMethod: "card",
        paymentMethodBrand: "visa",
        orderSource: "web",
        currency: "SEK",
        totalPrice: 25000,
        originalPrice: 25000,
      })
      .returning();
    return { orderId: order!.id, deliveryIds: await recordOrderEvent(tx, organizationId, "OrderCompleted", [order!.id]) };
  });
  await announceDeliveries(deliveryIds);
  return { orderId, deliveryIds };
}

/** A Pending delivery written directly and not announced, for tests that make the attempts themselves. */
export async function insertDelivery(organizationId: string, integrationId: string, payload = '{"hello":"world"}') {
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ organizationId, integrationId: fromPublicId("integration", integrationId)!, eventType: "OrderCompleted", payload })
    .returning();
  return row!;
}

export async function deliveryRow(id: string) {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row!;
}

export async function attemptRows(deliveryId: string) {
  return db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(webhookAttempts.attemptNumber);
}

/** Waits until the delivery reaches one of the statuses (deliveries run in the background). */
export async function waitForStatus(id: string, statuses: string[], timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await deliveryRow(id);
    if (statuses.includes(row.status)) return row;
    if (Date.now() > deadline) expect.fail(`delivery ${id} is ${row.status} after ${timeoutMs} ms, expected ${statuses.join("/")}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
