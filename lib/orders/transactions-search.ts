import { and, asc, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { db } from "@/db/client";
import { orders } from "@/db/schema";
import type { TransactionsQuery } from "./order-schemas";
import { countOrders } from "./orders";
import { toTransactionOrders, type TransactionOrder } from "./transaction-order";

const MAX_ORDER_NUMBER = 2_147_483_647;

/**
 * The sort keys, each written exactly as the leading columns of its index after organization_id
 * (orders_org_created_idx, orders_org_price_idx, orders_org_customer_name_idx), with the order uuid as
 * the final key: the ordering is total, so walking pages with `from` never repeats or skips an order,
 * and PostgreSQL can read the first page straight off the index (forwards or backwards).
 */
const SORT_KEYS = {
  date: orders.createdAt,
  price: orders.totalPrice,
  customer_name: sql`lower(${orders.customerName})`,
} as const;

/** The query's filters beyond the organization; empty when it asks for every order. */
function filtersOf(query: TransactionsQuery): SQL[] {
  const filters: SQL[] = [];
  if (query.date_from) filters.push(sql`${orders.createdAt} >= ${query.date_from.text}::timestamptz`);
  if (query.date_to) {
    filters.push(
      query.date_to.wholeDay
        ? sql`${orders.createdAt} < ${query.date_to.text}::timestamptz + interval '1 day'`
        : sql`${orders.createdAt} <= ${query.date_to.text}::timestamptz`,
    );
  }
  if (query.event_id) filters.push(eq(orders.eventId, query.event_id));
  if (query.is_refunded !== undefined) filters.push(eq(orders.isRefunded, query.is_refunded));
  if (query.q) {
    // strpos on lowered text is a plain substring test: no LIKE wildcards to escape in user input.
    const needle = query.q.toLowerCase();
    const matches: SQL[] = [
      sql`strpos(lower(${orders.customerEmail}), ${needle}) > 0`,
      sql`strpos(lower(${orders.customerName}), ${needle}) > 0`,
      sql`strpos(lower(${orders.customerPhone}), ${needle}) > 0`,
    ];
    if (/^\d+$/.test(query.q) && Number(query.q) <= MAX_ORDER_NUMBER) {
      matches.push(eq(orders.orderNumber, Number(query.q)));
    }
    filters.push(or(...matches)!);
  }
  return filters;
}

/** GET /analytics_search/api/transactions: one page of 2.2 Orders and the exact count for the same filters. */
export async function searchTransactions(
  organizationId: string,
  query: TransactionsQuery,
): Promise<{ total_count: number; orders: TransactionOrder[] }> {
  const filters = filtersOf(query);
  const direction = query.order === "asc" ? asc : desc;
  const ordering = [direction(SORT_KEYS[query.sort]), direction(orders.id)];
  // Deferred join: the page's ids come from an index-only scan (the sort indexes INCLUDE what the
  // date filter needs), so a deep `from` skips index entries instead of whole rows.
  const page = db
    .select({ pageId: sql<string>`${orders.id}`.as("page_id") })
    .from(orders)
    .where(and(eq(orders.organizationId, organizationId), ...filters))
    .orderBy(...ordering)
    .limit(query.size)
    .offset(query.from)
    .as("page");
  const [rows, total] = await Promise.all([
    db
      .select({ order: orders })
      .from(page)
      .innerJoin(orders, eq(orders.id, page.pageId))
      .orderBy(...ordering),
    countOrders(organizationId, filters),
  ]);
  return { total_count: total, orders: await toTransactionOrders(db, rows.map((row) => row.order)) };
}
