import { and, count, desc, eq, inArray, sql, type Placeholder, type SQL } from "drizzle-orm";
import { db, preparedPerHandle, preparedPerShape, statementWithGenericPlan, type Queryable } from "@/db/client";
import { orderItems, orders, organizationOrderCounts } from "@/db/schema";
import { inUuids, uuidArray } from "@/db/uuid-list";
import { notFound } from "@/lib/http/errors";
import { fromPublicId, toPublicId } from "@/lib/ids";
import type { ListOrdersQuery, Order } from "./order-schemas";
import { groupBy, type OrderRow } from "./transaction-order";
import { pageMeta, pageOf } from "@/lib/http/pagination";

type OrderItemRow = typeof orderItems.$inferSelect;

/** What a 2.3 Order shows of an order's row and of its items' rows. */
type SerializedOrderRow = Pick<
  OrderRow,
  "id" | "status" | "totalPrice" | "originalPrice" | "currency" | "orderNumber" | "eventId" | "customerEmail" | "customerName"
  | "customerPhone" | "createdAt" | "refundReason" | "refundedAt"
>;
type SerializedItemRow = Pick<OrderItemRow, "ticketTypeId" | "name" | "quantity" | "unitPrice">;

/** A 2.3 Order from its row and its items (in their order). */
export function serializeOrder(row: SerializedOrderRow, items: SerializedItemRow[]): Order {
  return {
    id: toPublicId("order", row.id),
    status: row.status,
    total: row.totalPrice,
    original_price: row.originalPrice,
    currency: row.currency,
    order_number: row.orderNumber,
    event_id: toPublicId("event", row.eventId),
    items: items.map((item) => ({
      ticket_id: toPublicId("ticketType", item.ticketTypeId),
      ticket_name: item.name,
      quantity: item.quantity,
      unit_price: item.unitPrice,
    })),
    customer: {
      email: row.customerEmail,
      name: row.customerName,
      ...(row.customerPhone == null ? {} : { phone_number: row.customerPhone }),
    },
    created_at: row.createdAt.toISOString(),
    ...(row.refundReason == null ? {} : { refund_reason: row.refundReason }),
    ...(row.refundedAt == null ? {} : { refunded_at: row.refundedAt.toISOString() }),
  };
}

const itemsQuery = (q: Queryable, orderIds: string[] | Placeholder) =>
  q.select().from(orderItems).where(inUuids(orderItems.orderId, orderIds)).orderBy(orderItems.orderId, orderItems.id);
const orderQuery = (q: Queryable, organizationId: string | Placeholder, orderId: string | Placeholder) =>
  q.select().from(orders).where(and(eq(orders.organizationId, organizationId), eq(orders.id, orderId))).limit(1);

// Outside transactions, as prepared queries: see preparedPerHandle.
const preparedItems = preparedPerHandle((database) => itemsQuery(database, sql.placeholder("ids")).prepare("order_items_of_orders"));
const preparedOrder = preparedPerHandle((database) =>
  orderQuery(database, sql.placeholder("organizationId"), sql.placeholder("orderId")).prepare("order_of_organization"),
);

/** Serializes order rows (in their order) as spec 2.3 Orders, with one query for all their items. */
export async function serializeOrders(q: Queryable, rows: OrderRow[]): Promise<Order[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const items = q === db ? await preparedItems().execute({ ids: uuidArray(ids) }) : await itemsQuery(q, ids);
  const byOrder = groupBy(items, (item) => item.orderId);
  return rows.map((row) => serializeOrder(row, byOrder.get(row.id) ?? []));
}

/** One order of the organization by its UUID as a 2.3 Order, or 404. */
export async function loadOrder(q: Queryable, organizationId: string, orderId: string): Promise<Order> {
  const [row] = q === db ? await preparedOrder().execute({ organizationId, orderId }) : await orderQuery(q, organizationId, orderId);
  if (!row) throw notFound("Order");
  const [order] = await serializeOrders(q, [row]);
  return order!;
}

/** GET /v1/orders/:id — a malformed, unknown or other organization's id is the same 404. */
export async function getOrder(organizationId: string, publicId: string): Promise<Order> {
  const orderId = fromPublicId("order", publicId);
  if (!orderId) throw notFound("Order");
  return loadOrder(db, organizationId, orderId);
}

/** The organization's orders, summed from the trigger-maintained organization_order_counts (a few slot rows). */
export const organizationOrderCount = (organizationId: unknown) =>
  sql<number>`(select coalesce(sum(${organizationOrderCounts.orderCount}), 0) from ${organizationOrderCounts}
    where ${organizationOrderCounts.organizationId} = ${organizationId})`;

const orderCountOfOrganization = statementWithGenericPlan(() => sql`select ${organizationOrderCount(sql.placeholder("organization_id"))} as "total"`);

/**
 * The exact number of the organization's orders matching `filters`. Without filters it reads the kept counts
 * (organizationOrderCount) instead of counting every order.
 */
export async function countOrders(organizationId: string, filters: SQL[]): Promise<number> {
  if (filters.length === 0) {
    const [row] = (await orderCountOfOrganization({ organization_id: organizationId })) as { total: number | string }[];
    return Number(row?.total ?? 0);
  }
  const [row] = await db
    .select({ total: count() })
    .from(orders)
    .where(and(eq(orders.organizationId, organizationId), ...filters));
  return row?.total ?? 0;
}

/** Which of GET /v1/orders's filters a request has: what decides the text of its queries (preparedPerShape). */
interface OrderListShape {
  event: boolean;
  status: boolean;
}

const orderListWhere = (shape: OrderListShape) =>
  and(
    eq(orders.organizationId, sql.placeholder("organizationId")),
    shape.event ? eq(orders.eventId, sql.placeholder("eventId")) : undefined,
    shape.status ? eq(orders.status, sql.placeholder("status")) : undefined,
  );
const orderListKey = (shape: OrderListShape) => `${shape.event} ${shape.status}`;

const preparedOrderPage = preparedPerShape(orderListKey, (database, shape: OrderListShape) =>
  database
    .select()
    .from(orders)
    .where(orderListWhere(shape))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"))
    .prepare("order_page"),
  "per-execution",
);
const preparedFilteredOrderCount = preparedPerShape(orderListKey, (database, shape: OrderListShape) =>
  database
    .select({ total: count() })
    .from(orders)
    .where(orderListWhere(shape))
    .prepare("filtered_order_count"),
  "per-execution",
);

/** GET /v1/orders — newest first, ties by id, so pages are stable (matches orders_org_*_idx). */
export async function listOrders(organizationId: string, query: ListOrdersQuery) {
  const shape: OrderListShape = { event: Boolean(query.event_id), status: Boolean(query.status) };
  const values = { organizationId, eventId: query.event_id, status: query.status, ...pageOf(query) };
  const [rows, total] = await Promise.all([
    preparedOrderPage(shape).execute(values),
    shape.event || shape.status
      ? preparedFilteredOrderCount(shape).execute(values).then(([row]) => row?.total ?? 0)
      : countOrders(organizationId, []),
  ]);
  return {
    data: await serializeOrders(db, rows),
    meta: pageMeta(query, total),
  };
}

/** The numbers of the organization's orders with these bare ids (for links); ids of other organizations or deleted orders are absent. */
export async function orderNumbersOf(organizationId: string, orderIds: string[]): Promise<Map<string, number>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .select({ id: orders.id, number: orders.orderNumber })
    .from(orders)
    .where(and(eq(orders.organizationId, organizationId), inArray(orders.id, orderIds)));
  return new Map(rows.map((row) => [row.id, row.number]));
}
