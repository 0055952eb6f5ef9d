import { and, asc, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { db } from "@/db/client";
import { orders, organizations } from "@/db/schema";
import type { TransactionsQuery } from "./order-schemas";

/** What filtersOf reads: the search's filters, q optional (the summary has none). */
export type TransactionFilters = Pick<TransactionsQuery, "date_from" | "date_to" | "event_id" | "is_refunded" | "order_source" | "payment_method"> & {
  q?: string;
};
import { countOrders } from "./orders";
import { toTransactionOrders, type TransactionOrder } from "./transaction-order";

const MAX_ORDER_NUMBER = 2_147_483_647;

/**
 * The sort keys, each written exactly as the leading columns of its index after organization_id
 * (orders_org_created_idx, orders_org_price_idx, orders_org_customer_name_idx), with the order uuid as
 * the final key: the ordering is total, so walking pages with `from` never repeats or skips an order,
 * and PostgreSQL can read the first page straight off the index (forwards or backwards).
 */
export const SORT_KEYS = {
  date: orders.createdAt,
  price: orders.totalPrice,
  customer_name: sql`lower(${orders.customerName})`,
} as const;

/** The created_at bounds of the query as timestamptz expressions; a bare date_to covers its whole day. */
function dateBounds(query: Pick<TransactionsQuery, "date_from" | "date_to">): { lo?: SQL; hi?: SQL; hiInclusive: boolean } {
  const { date_from: from, date_to: to } = query;
  return {
    lo: from && sql`${from.text}::timestamptz`,
    hi: to && (to.wholeDay ? sql`${to.text}::timestamptz + interval '1 day'` : sql`${to.text}::timestamptz`),
    hiInclusive: Boolean(to && !to.wholeDay),
  };
}

/** The query's filters beyond the organization; empty when it asks for every order. */
export function filtersOf(query: TransactionFilters): SQL[] {
  const filters: SQL[] = [];
  const { lo, hi, hiInclusive } = dateBounds(query);
  if (lo) filters.push(sql`${orders.createdAt} >= ${lo}`);
  if (hi) filters.push(hiInclusive ? sql`${orders.createdAt} <= ${hi}` : sql`${orders.createdAt} < ${hi}`);
  if (query.event_id) filters.push(eq(orders.eventId, query.event_id));
  if (query.is_refunded !== undefined) filters.push(eq(orders.isRefunded, query.is_refunded));
  if (query.order_source) filters.push(eq(orders.orderSource, query.order_source));
  if (query.payment_method) filters.push(eq(orders.paymentMethod, query.payment_method));
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

/**
 * The exact count for the query's filters. Filtered by dates alone, it sums whole days of
 * order_daily_counts and counts only the partial days at the ends, instead of every order in the range.
 */
async function countTransactions(organizationId: string, query: TransactionsQuery, filters: SQL[]): Promise<number> {
  const datesOnly =
    query.event_id === undefined && query.is_refunded === undefined && !query.q && !query.order_source && !query.payment_method;
  if (filters.length === 0 || !datesOnly) return countOrders(organizationId, filters);
  const { lo, hi, hiInclusive } = dateBounds(query);
  const [row] = await db
    .select({
      total: sql<number>`count_orders_created_between(${organizations.id}, ${lo ?? sql`null::timestamptz`}, ${hi ?? sql`null::timestamptz`}, ${hiInclusive}::boolean)`.mapWith(Number),
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row?.total ?? 0;
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
    countTransactions(organizationId, query, filters),
  ]);
  return { total_count: total, orders: await toTransactionOrders(db, rows.map((row) => row.order)) };
}
