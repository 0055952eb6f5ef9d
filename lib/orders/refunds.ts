import { and, eq, sql, type SQL } from "drizzle-orm";
import { db, type Transaction } from "@/db/client";
import { orders } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import { conflict, notFound } from "@/lib/http/errors";
import { fromPublicId } from "@/lib/ids";
import { announceDeliveries, recordOrderEvent } from "@/lib/webhooks/outbox";
import type { Order } from "./order-schemas";
import { loadOrder } from "./orders";

/*
 * Lock order, shared by every writer of orders and ticket quantities so none can deadlock:
 * event row (event cancel/delete FOR UPDATE, order creation FOR SHARE) → ticket_types rows in id
 * order → orders rows → counter slot rows of the changes band (db/sql/order-counter-slot.sql) → stock
 * bucket rows (ticket_type_stock) by ticket type id and bucket. Order creation locks no ticket_types row
 * (its items' foreign keys take only KEY SHARE, which the NO KEY UPDATE locks here let through) and its
 * counter rows (the new-orders band, never shared with these) before its stock buckets.
 */

/**
 * Refunds one completed order: status refunded, reason and time recorded, its tickets released to
 * their ticket types. The order row is locked before its status is read, so of two concurrent
 * refunds one waits, then sees `refunded` and gets 409: an order is refunded (and released) once.
 */
export async function refundOrder(organizationId: string, orderId: string, reason?: string): Promise<Order> {
  const { order, deliveryIds } = await db.transaction(async (tx) => {
    const orderIds = sql`select ${orderId}::uuid`;
    await lockTicketTypes(tx, organizationId, sql`select oi.ticket_type_id from order_items oi where oi.order_id in (${orderIds})`);
    const [locked] = await tx
      .select({ status: orders.status })
      .from(orders)
      .where(and(eq(orders.organizationId, organizationId), eq(orders.id, orderId)))
      .for("update");
    if (!locked) throw notFound("Order");
    if (locked.status !== "completed") throw conflict(`Order is ${locked.status}; only completed orders can be refunded`);

    await tx
      .update(orders)
      .set({ status: "refunded", refundReason: reason?.trim() ? reason : null, refundedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(orders.id, orderId));
    await releaseTickets(tx, organizationId, orderIds);
    const deliveryIds = await recordOrderEvent(tx, organizationId, "OrderRefunded", [orderId]);
    const order = await loadOrder(tx, organizationId, orderId);
    await recordAudit(tx, {
      organizationId,
      action: "order.refunded",
      target: { type: "order", id: order.id, label: `#${order.order_number}` },
      details: { reason: order.refund_reason ?? null, total: order.total, currency: order.currency },
    });
    return { order, deliveryIds };
  });
  // Only after commit: a webhook must never announce a refund that was rolled back.
  await announceDeliveries(deliveryIds);
  return order;
}

/** POST /v1/orders/:id/refund with a public `ord_…` id; malformed ids are a 404 like unknown ones. */
export async function refundOrderByPublicId(organizationId: string, publicId: string, reason?: string): Promise<Order> {
  const orderId = fromPublicId("order", publicId);
  if (!orderId) throw notFound("Order");
  return refundOrder(organizationId, orderId, reason);
}

/**
 * Refunds every completed order of an event (event deleted or cancelled) inside the caller's
 * transaction, releases their tickets and records their OrderRefunded deliveries; returns how many orders
 * were refunded and the deliveries the caller announces after its commit. Orders already refunded or
 * cancelled are left as they are, so a concurrent single refund is never counted twice.
 */
export async function refundCompletedOrdersOfEvent(
  tx: Transaction,
  organizationId: string,
  eventId: string,
  reason: string,
): Promise<{ refunded: number; deliveryIds: string[] }> {
  await lockTicketTypes(tx, organizationId, sql`select t.id from ticket_types t where t.event_id = ${eventId}`);
  const refunded = await tx
    .update(orders)
    .set({ status: "refunded", refundReason: reason, refundedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(orders.organizationId, organizationId), eq(orders.eventId, eventId), eq(orders.status, "completed")))
    .returning({ id: orders.id });
  if (refunded.length === 0) return { refunded: 0, deliveryIds: [] };
  const ids = `{${refunded.map((row) => row.id).join(",")}}`;
  await releaseTickets(tx, organizationId, sql`select unnest(${ids}::uuid[])`);
  const deliveryIds = await recordOrderEvent(
    tx,
    organizationId,
    "OrderRefunded",
    refunded.map((row) => row.id),
  );
  return { refunded: refunded.length, deliveryIds };
}

/** Locks the organization's ticket types whose ids the subquery yields, in id order (see the lock order above). */
async function lockTicketTypes(tx: Transaction, organizationId: string, ticketTypeIds: SQL) {
  await tx.execute(sql`
    select tt.id from ticket_types tt
    where tt.id in (${ticketTypeIds}) and tt.organization_id = ${organizationId}
    order by tt.id
    for no key update`);
}

/** Gives the quantities of the given orders' items back to their ticket types' stock (db/sql/release-tickets.sql). */
async function releaseTickets(tx: Transaction, organizationId: string, orderIds: SQL) {
  await tx.execute(sql`
    select release_tickets(array_agg(oi.ticket_type_id), array_agg(oi.quantity))
    from order_items oi join ticket_types tt on tt.id = oi.ticket_type_id and tt.organization_id = ${organizationId}
    where oi.order_id in (${orderIds})`);
}
