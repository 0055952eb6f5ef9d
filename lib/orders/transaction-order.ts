import { and, eq, sql, type Placeholder } from "drizzle-orm";
import { z } from "zod";
import { db, rowsOf, statementWithGenericPlan, type Queryable } from "@/db/client";
import { isoText, publicIdText } from "@/db/output-values";
import { orderCampaigns, orderItems, orders } from "@/db/schema";
import { inUuids, uuidArray } from "@/db/uuid-list";
import type { transactionOrderSchema } from "./order-schemas";

/** The spec 2.2 Order (transactions search and the OrderCompleted webhook payload); see transactionOrderSchema. */
export type TransactionOrder = z.infer<typeof transactionOrderSchema>;

export type OrderRow = typeof orders.$inferSelect;

/**
 * An order's own fields of the 2.2 Order, selected by transactionOrderColumns already as the API writes them
 * (timestamps and ids as text), so a page of them is read without drizzle's row mapping or a Date per row.
 */
export interface TransactionOrderRow {
  uuid: string;
  email: string;
  phone_number: string | null;
  customer_name: string;
  total_price: number;
  payment_method: string;
  payment_method_brand: string;
  is_refunded: boolean;
  order_number: number;
  order_source: string;
  created_at: string;
  refund_reason: string | null;
  refunded_at: string | null;
  organization: string;
  event: string;
  currency: string;
  original_price: number;
}

/** The select list of a TransactionOrderRow, from `orders`; run raw (`q.execute`, rowsOf). */
export const transactionOrderColumns = sql`${orders.id} as uuid, ${orders.customerEmail} as email,
  ${orders.customerPhone} as phone_number, ${orders.customerName} as customer_name, ${orders.totalPrice} as total_price,
  ${orders.paymentMethod} as payment_method, ${orders.paymentMethodBrand} as payment_method_brand,
  ${orders.isRefunded} as is_refunded, ${orders.orderNumber} as order_number, ${orders.orderSource} as order_source,
  ${isoText(orders.createdAt)} as created_at, ${orders.refundReason} as refund_reason, ${isoText(orders.refundedAt)} as refunded_at,
  ${publicIdText("organization", orders.organizationId)} as organization, ${publicIdText("event", orders.eventId)} as event,
  ${orders.currency} as currency, ${orders.originalPrice} as original_price`;

export type CartItem = TransactionOrder["cart"]["items"][number];
export type CartCampaign = TransactionOrder["cart"]["campaigns"][number];

const cartItemsOf = (ids: string[] | Placeholder) => sql`select ${orderItems.orderId} as order_id, ${orderItems.productType} as product_type,
  ${orderItems.name} as name, ${orderItems.quantity} as quantity, ${orderItems.unitPrice} as price, ${orderItems.vatPercent} as vat,
  ${publicIdText("event", orderItems.eventId)} as event, ${orderItems.eventName} as event_name, ${orderItems.category} as category
  from ${orderItems} where ${inUuids(orderItems.orderId, ids)} order by ${orderItems.orderId}, ${orderItems.id}`;

const cartCampaignsOf = (ids: string[] | Placeholder) => sql`select ${orderCampaigns.orderId} as order_id, ${orderCampaigns.campaignId} as uuid,
  ${orderCampaigns.name} as name, ${orderCampaigns.code} as code, ${orderCampaigns.discountAmount} as discount_amount
  from ${orderCampaigns} where ${inUuids(orderCampaigns.orderId, ids)} order by ${orderCampaigns.orderId}, ${orderCampaigns.id}`;

// A page read outside a transaction fetches its items and campaigns by statements rendered once and planned once per
// session: drizzle's building of them and PostgreSQL's planning for each page's ids cost more than running them.
const cartItemsStatement = statementWithGenericPlan(() => cartItemsOf(sql.placeholder("ids")));
const cartCampaignsStatement = statementWithGenericPlan(() => cartCampaignsOf(sql.placeholder("ids")));

/**
 * Serializes a page of order rows in their given order, with items and campaigns fetched in two
 * queries for the whole page (not one per order); `q` is the app's `db` or a transaction to read in.
 */
export async function serializeTransactionOrders(q: Queryable, rows: TransactionOrderRow[]): Promise<TransactionOrder[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.uuid);
  const idArray = uuidArray(ids);
  const cartRows = async <R>(statement: typeof cartItemsStatement, build: typeof cartItemsOf) =>
    rowsOf<R & { order_id: string }>(q === db ? await statement({ ids: idArray }) : await q.execute(build(ids)));
  const [items, campaigns] = await Promise.all([
    cartRows<CartItem>(cartItemsStatement, cartItemsOf),
    cartRows<CartCampaign>(cartCampaignsStatement, cartCampaignsOf),
  ]);
  const itemsByOrder = byOrder(items, (item): CartItem => ({
    product_type: item.product_type,
    name: item.name,
    quantity: item.quantity,
    price: item.price,
    vat: item.vat,
    event: item.event,
    event_name: item.event_name,
    category: item.category,
  }));
  const campaignsByOrder = byOrder(campaigns, ({ uuid, name, code, discount_amount }): CartCampaign => ({ uuid, name, code, discount_amount }));
  return rows.map((row) => transactionOrderOf(row, itemsByOrder.get(row.uuid) ?? [], campaignsByOrder.get(row.uuid) ?? []));
}

/**
 * One 2.2 Order from its row, its items (in item id order) and its campaigns. The optional fields are undefined
 * rather than absent when null: JSON leaves both out, and one object shape is built without spreads.
 */
export function transactionOrderOf(row: TransactionOrderRow, items: CartItem[], campaigns: CartCampaign[]): TransactionOrder {
  return {
    uuid: row.uuid,
    email: row.email,
    phone_number: row.phone_number ?? undefined,
    customer_name: row.customer_name,
    total_price: row.total_price,
    payment_method: row.payment_method,
    payment_method_brand: row.payment_method_brand,
    is_refunded: row.is_refunded,
    order_number: row.order_number,
    order_source: row.order_source,
    created_at: row.created_at,
    refund_reason: row.refund_reason ?? undefined,
    refunded_at: row.refunded_at ?? undefined,
    cart: {
      organization: row.organization,
      event: row.event,
      currency: row.currency,
      total_price: row.total_price,
      original_price: row.original_price,
      items,
      campaigns,
    },
  };
}

/** What `build` makes of each row, grouped by the row's order, in the rows' order. */
function byOrder<R extends { order_id: string }, V>(rows: R[], build: (row: R) => V): Map<string, V[]> {
  const groups = new Map<string, V[]>();
  for (const row of rows) pushTo(groups, row.order_id, build(row));
  return groups;
}

function pushTo<K, V>(groups: Map<K, V[]>, key: K, value: V): void {
  const group = groups.get(key);
  if (group) group.push(value);
  else groups.set(key, [value]);
}

/** The 2.2 Orders of the given order UUIDs of one organization, in the order of `orderIds`; unknown ids are skipped. */
export async function loadTransactionOrders(
  q: Queryable,
  organizationId: string,
  orderIds: string[],
): Promise<TransactionOrder[]> {
  if (orderIds.length === 0) return [];
  const rows = rowsOf<TransactionOrderRow>(
    await q.execute(
      sql`select ${transactionOrderColumns} from ${orders} where ${and(eq(orders.organizationId, organizationId), inUuids(orders.id, orderIds))}`,
    ),
  );
  const byId = new Map(rows.map((row) => [row.uuid, row]));
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
  for (const value of values) pushTo(groups, key(value), value);
  return groups;
}
