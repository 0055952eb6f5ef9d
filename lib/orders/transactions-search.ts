import { and, asc, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { db } from "@/db/client";
import { events, orderDailySales, orders, organizations } from "@/db/schema";
import type { TransactionsQuery } from "./order-schemas";
import { countOrders } from "./orders";
import { cursorFingerprint, encodeCursor } from "./transactions-cursor";
import { serializeTransactionOrders, type TransactionOrder } from "./transaction-order";

/** What filtersOf reads: the search's filters, q optional (the summary has none). */
export type TransactionFilters = Pick<TransactionsQuery, "date_from" | "date_to" | "event_id" | "is_refunded" | "order_source" | "payment_method"> & {
  q?: string;
};

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

/**
 * Each sort key as text for a cursor and back: created_at to the microsecond in UTC (a JS Date keeps only
 * milliseconds), so the next page starts exactly after the last order.
 */
const CURSOR_KEYS = {
  date: {
    text: sql<string>`to_char(${orders.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    value: (text: string) => sql`${text}::timestamptz`,
  },
  price: { text: sql<string>`${orders.totalPrice}::text`, value: (text: string) => sql`${text}::int` },
  customer_name: { text: sql<string>`lower(${orders.customerName})`, value: (text: string) => sql`${text}::text` },
} as const;

/** `q` fragments shorter than a trigram cannot use the trigram indexes. */
const TRIGRAM = 3;

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
export function filtersOf(organizationId: string, query: TransactionFilters): SQL[] {
  const filters: SQL[] = [];
  const { lo, hi, hiInclusive } = dateBounds(query);
  if (lo) filters.push(sql`${orders.createdAt} >= ${lo}`);
  if (hi) filters.push(hiInclusive ? sql`${orders.createdAt} <= ${hi}` : sql`${orders.createdAt} < ${hi}`);
  if (query.event_id) filters.push(eq(orders.eventId, query.event_id));
  if (query.is_refunded !== undefined) filters.push(eq(orders.isRefunded, query.is_refunded));
  if (query.order_source) filters.push(eq(orders.orderSource, query.order_source));
  if (query.payment_method) filters.push(eq(orders.paymentMethod, query.payment_method));
  if (query.q) filters.push(qFilter(organizationId, query.q));
  return filters;
}

const Q_COLUMNS = [orders.customerEmail, orders.customerName, orders.customerPhone];

/**
 * `q`: a case-insensitive substring of the e-mail, name or phone, or the exact order number. From three
 * characters on, each alternative is answered by its own index (a trigram index per column, the order
 * number's unique index) and the matches are a UNION of ids, since one OR across columns defeats every
 * index. Shorter fragments have no trigram to look up and stay one scan with the same test.
 */
function qFilter(organizationId: string, q: string): SQL {
  const needle = q.toLowerCase();
  const orderNumber = /^\d+$/.test(q) && Number(q) <= MAX_ORDER_NUMBER ? Number(q) : undefined;
  if ([...needle].length < TRIGRAM) {
    // strpos on lowered text is a plain substring test: no LIKE wildcards to escape in user input.
    const matches = Q_COLUMNS.map((column) => sql`strpos(lower(${column}), ${needle}) > 0`);
    if (orderNumber !== undefined) matches.push(eq(orders.orderNumber, orderNumber));
    return or(...matches)!;
  }
  // The same substring test as LIKE, which the trigram indexes serve: wildcards in the input escaped.
  const pattern = `%${needle.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const ofOrganization = sql`select ${orders.id} from ${orders} where ${orders.organizationId} = ${organizationId}`;
  const branches = Q_COLUMNS.map((column) => sql`${ofOrganization} and lower(${column}) like ${pattern}`);
  if (orderNumber !== undefined) branches.push(sql`${ofOrganization} and ${orders.orderNumber} = ${orderNumber}`);
  return sql`${orders.id} in (${sql.join(branches, sql` union `)})`;
}

/**
 * The exact count for the query's filters. Filtered by dates alone, it sums whole days of
 * order_daily_counts and counts only the partial days at the ends, instead of every order in the range.
 */
async function countTransactions(organizationId: string, query: TransactionsQuery, filters: SQL[]): Promise<number> {
  // The trigger-kept counts know dates, events and refund state; q, channel and payment method count the orders.
  if (filters.length === 0 || query.q || query.order_source || query.payment_method) return countOrders(organizationId, filters);
  const { lo, hi, hiInclusive } = dateBounds(query);
  const bounds = sql`${lo ?? sql`null::timestamptz`}, ${hi ?? sql`null::timestamptz`}, ${hiInclusive}::boolean`;
  const datesOnly = query.event_id === undefined && query.is_refunded === undefined;
  // Dates alone: order_daily_counts; with the event or refund filter: order_daily_facet_counts (finer rows).
  const total = datesOnly
    ? sql<number>`count_orders_created_between(${organizations.id}, ${bounds})`
    : sql<number>`count_orders_matching(${organizations.id}, ${bounds}, ${query.event_id ?? null}::uuid, ${query.is_refunded ?? null}::boolean)`;
  const [row] = await db
    .select({ total: total.mapWith(Number) })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row?.total ?? 0;
}

/**
 * GET /analytics_search/api/transactions: one page of 2.2 Orders, the exact count for the same filters, and
 * the cursor of the next page unless this is the last.
 */
export async function searchTransactions(
  organizationId: string,
  query: TransactionsQuery,
): Promise<{ total_count: number; orders: TransactionOrder[]; next_cursor?: string }> {
  const filters = filtersOf(organizationId, query);
  const after = query.cursor && cursorCondition(query, query.cursor);
  const forward = query.order === "asc" ? asc : desc;
  const ordering = [forward(SORT_KEYS[query.sort]), forward(orders.id)];
  // With q the page visits every match anyway (they come from the trigram indexes, not in sort order), so
  // the same pass counts them instead of a second evaluation of the index union. A cursor page sees only
  // the matches after the cursor, and a page past the end none at all: those count apart.
  const countInPage = Boolean(query.q) && !after;
  // A deep offset skips that many index entries. Past the middle of the matches the page is read from the
  // other end of the same index instead (skipping total - from entries, so the last page costs what the
  // first does); that needs the count first, which without q comes from the trigger-kept counters.
  const deepTotal = !countInPage && !after && query.from >= REVERSE_FROM ? await countTransactions(organizationId, query, filters) : undefined;
  const span = pageWindow(query, deepTotal);
  const backward = query.order === "asc" ? desc : asc;
  const pageDirection = span.reversed ? backward : forward;
  // Deferred join: the page's ids come from an index-only scan (the sort indexes INCLUDE what the
  // date filter needs), so a deep `from` skips index entries instead of whole rows. One order beyond the
  // page tells whether there is a next one.
  const page = db
    .select({
      pageId: sql<string>`${orders.id}`.as("page_id"),
      matches: (countInPage ? sql<number | null>`count(*) over ()` : sql<number | null>`null::bigint`).as("matches"),
    })
    .from(orders)
    .where(and(eq(orders.organizationId, organizationId), ...filters, after))
    .orderBy(pageDirection(SORT_KEYS[query.sort]), pageDirection(orders.id))
    .limit(span.limit)
    .offset(span.offset)
    .as("page");
  const [rows, counted] = await Promise.all([
    span.limit === 0
      ? []
      : db
          .select({ order: orders, cursorKey: CURSOR_KEYS[query.sort].text, matches: page.matches })
          .from(page)
          .innerJoin(orders, eq(orders.id, page.pageId))
          .orderBy(...ordering),
    countInPage || deepTotal !== undefined ? deepTotal : countTransactions(organizationId, query, filters),
  ]);
  const total =
    counted ??
    (rows[0] ? Number(rows[0].matches) : query.from === 0 ? 0 : await countTransactions(organizationId, query, filters));
  const last = rows.length > query.size ? rows[query.size - 1] : undefined;
  return {
    total_count: total,
    orders: await serializeTransactionOrders(db, rows.slice(0, query.size).map((row) => row.order)),
    ...(last && { next_cursor: encodeCursor({ f: cursorFingerprint(query), k: last.cursorKey, i: last.order.id }) }),
  };
}

/** Offsets from which a page may be read backwards: below it skipping is cheap and the count would only add a round trip. */
const REVERSE_FROM = 1_000;

/**
 * Where the page's rows (and the one beyond it) lie: `from` in the requested order, or, when `total` is known
 * and the page lies in the second half, the same rows counted from the other end.
 */
function pageWindow(query: TransactionsQuery, total: number | undefined): { offset: number; limit: number; reversed: boolean } {
  const limit = query.size + 1;
  if (total === undefined || query.from < total / 2) return { offset: query.from, limit, reversed: false };
  if (query.from >= total) return { offset: 0, limit: 0, reversed: false };
  const lastIndex = Math.min(query.from + query.size, total - 1);
  return { offset: total - 1 - lastIndex, limit: lastIndex - query.from + 1, reversed: true };
}

/** Orders strictly after the cursor's in the query's ordering: (key, id) beyond the last page's last order. */
function cursorCondition(query: TransactionsQuery, cursor: NonNullable<TransactionsQuery["cursor"]>): SQL {
  const beyond = query.order === "asc" ? sql`>` : sql`<`;
  return sql`(${SORT_KEYS[query.sort]}, ${orders.id}) ${beyond} (${CURSOR_KEYS[query.sort].value(cursor.k)}, ${cursor.i}::uuid)`;
}

/**
 * What the search's filters can take: the organization's events (deleted ones too, their orders remain), and
 * the channels and payment methods it has sold through (from the trigger-kept daily sales, not every order).
 */
export async function transactionFacets(organizationId: string) {
  const [eventRows, channels, methods] = await Promise.all([
    db
      .select({ id: events.id, name: events.name })
      .from(events)
      .where(eq(events.organizationId, organizationId))
      .orderBy(asc(events.name), asc(events.id)),
    db
      .selectDistinct({ value: orderDailySales.orderSource })
      .from(orderDailySales)
      .where(eq(orderDailySales.organizationId, organizationId))
      .orderBy(asc(orderDailySales.orderSource)),
    db
      .selectDistinct({ value: orderDailySales.paymentMethod })
      .from(orderDailySales)
      .where(eq(orderDailySales.organizationId, organizationId))
      .orderBy(asc(orderDailySales.paymentMethod)),
  ]);
  return { events: eventRows, channels: channels.map((row) => row.value), paymentMethods: methods.map((row) => row.value) };
}
