import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { db, type Queryable } from "@/db/client";
import { orderCampaigns, orderItems, orders } from "@/db/schema";
import { inUuids } from "@/db/uuid-list";
import { toPublicId } from "@/lib/ids";
import type { transactionOrderSchema } from "./order-schemas";

/** The spec 2.2 Order (transactions search and the OrderCompleted webhook payload); see transactionOrderSchema. */
export type TransactionOrder = z.infer<typeof transactionOrderSchema>;

export type OrderRow = typeof orders.$inferSelect;

/**
 * Serializes a page of order rows in their given order, with items and campaigns fetched in two
 * queries for the whole page (not one per order).
 */
export async function serializeTransactionOrders(q: Queryable, rows: OrderRow[]): Promise<TransactionOrder[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [items, campaigns] = await Promise.all([
    q.select().from(orderItems).where(inUuids(orderItems.orderId, ids)).orderBy(orderItems.orderId, orderItems.id),
    q
      .select()
      .from(orderCampaigns)
      .where(inUuids(orderCampaigns.orderId, ids))
      .orderBy(orderCampaigns.orderId, orderCampaigns.id),
  ]);
  const itemsByOrder = groupBy(items, (item) => item.orderId);
  const campaignsByOrder = groupBy(campaigns, (campaign) => campaign.orderId);

  return rows.map((row) => ({
    uuid: row.id,
    email: row.customerEmail,
    ...(row.customerPhone == null ? {} : { phone_number: row.customerPhone }),
    customer_name: row.customerName,
    total_price: row.totalPrice,
    payment_method: row.paymentMethod,
    payment_method_brand: row.paymentMethodBrand,
    is_refunded: row.isRefunded,
    order_number: row.orderNumber,
    order_source: row.orderSource,
    created_at: row.createdAt.toISOString(),
    ...(row.refundReason == null ? {} : { refund_reason: row.refundReason }),
    ...(row.refundedAt == null ? {} : { refunded_at: row.refundedAt.toISOString() }),
    cart: {
      organization: toPublicId("organization", row.organizationId),
      event: toPublicId("event", row.eventId),
      currency: row.currency,
      total_price: row.totalPrice,
      original_price: row.originalPrice,
      items: (itemsByOrder.get(row.id) ?? []).map((item) => ({
        product_type: item.productType,
        name: item.name,
        quantity: item.quantity,
        price: item.unitPrice,
        vat: item.vatPercent,
        event: toPublicId("event", item.eventId),
        event_name: item.eventName,
        category: item.category,
      })),
      campaigns: (campaignsByOrder.get(row.id) ?? []).map((campaign) => ({
        uuid: campaign.campaignId,
        name: campaign.name,
        code: campaign.code,
        discount_amount: campaign.discountAmount,
      })),
    },
  }));
}

/** The 2.2 Orders of the given order UUIDs of one organization, in the order of `orderIds`; unknown ids are skipped. */
export async function loadTransactionOrders(
  q: Queryable,
  organizationId: string,
  orderIds: string[],
): Promise<TransactionOrder[]> {
  if (orderIds.length === 0) return [];
  const rows = await q
    .select()
    .from(orders)
    .where(and(eq(orders.organizationId, organizationId), inUuids(orders.id, orderIds)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = orderIds.flatMap((id) => byId.get(id) ?? []);
  return serializeTransactionOrders(q, ordered);
}

/** One order of the organization as a 2.2 Order, or null (a malformed uuid names no order). */
export async function findTransactionOrder(organizationId: string, orderId: string, q: Queryable = db): Promise<TransactionOrder | null> {
  if (!z.uuid().safeParse(orderId).success) return null;
  const [order] = await loadTransactionOrders(q, organizationId, [orderId]);
  return order ?? null;
}

export function groupBy<T, K>(values: T[], key: (value: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const value of values) {
    const k = key(value);
    const group = groups.get(k);
    if (group) group.push(value);
    else groups.set(k, [value]);
  }
  return groups;
}
