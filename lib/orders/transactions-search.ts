import { and, asc, desc, eq, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { db, executeWithGenericPlan, rowsOf } from "@/db/client";
import { unionAll } from "drizzle-orm/pg-core";
import {
  events,
  orderCustomerNames,
  orderDailySales,
  orderEmailDomainWords,
  orderEmailWordOrders,
  orderEmailWords,
  orders,
  organizations,
} from "@/db/schema";
import type { TransactionsQuery } from "./order-schemas";
import { countOrders } from "./orders";
import { cursorFingerprint, encodeCursor } from "./transactions-cursor";
import { serializeTransactionOrders, transactionOrderColumns, type TransactionOrder, type TransactionOrderRow } from "./transaction-order";

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

/** An exact order number `q` may name (a whole number within the column's range). */
function orderNumberOf(q: string): number | undefined {
  return /^\d+$/.test(q) && Number(q) <= MAX_ORDER_NUMBER ? Number(q) : undefined;
}

/** True when `q` is long enough for the trigram indexes (see qFilter). */
const usesTrigrams = (q: string) => [...q.toLowerCase()].length >= TRIGRAM;

/** A `q` the e-mail's words answer: only letters and digits, no separator of the address's words (email_words). */
const EMAIL_WORD_FRAGMENT = /^[a-z0-9]+$/;

/**
 * One alternative of `q`: the test on an order's own columns and the condition its index answers on orders;
 * for the e-mail's words also the matching orders' ids read from an index without visiting any order, which
 * answer instead of `indexed` unless `inDomain` holds (an uncorrelated test, decided once per statement).
 */
interface QAlternative {
  row: SQL;
  indexed: SQL;
  words?: { ids: ReturnType<typeof emailWordOrderIds>; inDomain: SQL };
}

/**
 * The orders whose e-mail's local part contains `pattern` (a LIKE pattern of letters and digits): the
 * organization's local-part words that contain it (by trigrams, in order_email_words), then each word's orders
 * (a range of order_email_word_orders' primary key). Exact, unlike the trigram index on orders, whose every
 * candidate is rechecked in its row; an order with two such words comes twice. The word ids are an array, so
 * they are looked up by their trigram index on their own, whatever the plan around them, and then read in one
 * index scan.
 */
function emailWordOrderIds(organizationId: string, pattern: string) {
  const words = db
    .select({ id: orderEmailWords.id })
    .from(orderEmailWords)
    .where(and(eq(orderEmailWords.organizationId, organizationId), sql`${orderEmailWords.word} like ${pattern}`));
  return db
    .select({ id: sql<string>`${orderEmailWordOrders.orderId}`.as("id") })
    .from(orderEmailWordOrders)
    .where(sql`${orderEmailWordOrders.wordId} = any(array(${words}))`);
}

/**
 * True when `pattern` is in a word of the organization's e-mail domains (order_email_domain_words), which lead
 * to no orders: the matches of such a `q` (`gmail`) are read by the trigram index on orders. Otherwise the local
 * parts' words (emailWordOrderIds) hold every e-mail match.
 */
function inEmailDomain(organizationId: string, pattern: string): SQL {
  const domainWords = db
    .select({ word: orderEmailDomainWords.word })
    .from(orderEmailDomainWords)
    .where(and(eq(orderEmailDomainWords.organizationId, organizationId), sql`${orderEmailDomainWords.word} like ${pattern}`));
  return sql`exists (${domainWords})`;
}

/**
 * The alternatives of `q` from three characters on, each answered by its own index: for the name the
 * organization's distinct names (order_customer_names, by trigrams), whose orders are ranges of
 * orders_org_customer_name_idx read without visiting the rows; for the e-mail its local parts' words
 * (emailWordOrderIds) when `q` is only letters and digits and in no domain's word, else its trigram index
 * (unless `q` has a space); the phone's trigram index; the order number's unique index. Each is the same
 * substring test as LIKE, wildcards in the input escaped.
 */
function qAlternatives(organizationId: string, q: string): QAlternative[] {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const like = (column: (typeof Q_COLUMNS)[number]) => sql`lower(${column}) like ${pattern}`;
  const names = db
    .select({ name: orderCustomerNames.name })
    .from(orderCustomerNames)
    .where(and(eq(orderCustomerNames.organizationId, organizationId), sql`${orderCustomerNames.name} like ${pattern}`));
  const alternatives: QAlternative[] = [{ indexed: sql`lower(${orders.customerName}) in (${names})`, row: like(orders.customerName) }];
  // No e-mail has a space (orders_customer_email_no_space), and a full name's trigrams match every first.last address.
  if (!q.includes(" ")) {
    const words = EMAIL_WORD_FRAGMENT.test(q.toLowerCase())
      ? { ids: emailWordOrderIds(organizationId, pattern), inDomain: inEmailDomain(organizationId, pattern) }
      : undefined;
    alternatives.push({ indexed: like(orders.customerEmail), row: like(orders.customerEmail), words });
  }
  alternatives.push({ indexed: like(orders.customerPhone), row: like(orders.customerPhone) });
  const orderNumber = orderNumberOf(q);
  if (orderNumber !== undefined) alternatives.push({ indexed: eq(orders.orderNumber, orderNumber), row: eq(orders.orderNumber, orderNumber) });
  return alternatives;
}

/**
 * `q`: a case-insensitive substring of the e-mail, name or phone, or the exact order number. From three
 * characters on, the matches are a UNION of ids, one branch per alternative (qAlternatives), since one OR
 * across columns defeats every index. Shorter fragments have no trigram to look up and stay one scan with the
 * same test.
 */
function qFilter(organizationId: string, q: string): SQL {
  if (!usesTrigrams(q)) {
    // strpos on lowered text is a plain substring test: no LIKE wildcards to escape in user input.
    const matches = Q_COLUMNS.map((column) => sql`strpos(lower(${column}), ${q.toLowerCase()}) > 0`);
    const orderNumber = orderNumberOf(q);
    if (orderNumber !== undefined) matches.push(eq(orders.orderNumber, orderNumber));
    return or(...matches)!;
  }
  const ofOrganization = sql`select ${orders.id} from ${orders} where ${orders.organizationId} = ${organizationId}`;
  const branches = qAlternatives(organizationId, q).flatMap(({ indexed, words }) =>
    words
      ? [sql`select ids.id from (${words.ids}) as ids where not ${words.inDomain}`, sql`${ofOrganization} and ${indexed} and ${words.inDomain}`]
      : [sql`${ofOrganization} and ${indexed}`],
  );
  return sql`${orders.id} in (${sql.join(branches, sql` union `)})`;
}

/**
 * The exact count for the query's filters. Without q, it sums whole days of the trigger-kept daily tables and
 * counts only the partial days at the ends (count_orders_matching), instead of every order in the range.
 */
async function countTransactions(organizationId: string, query: TransactionsQuery, filters: SQL[]): Promise<number> {
  // The daily tables know dates, events, refund state, channels and payment methods; q counts the orders.
  if (filters.length === 0 || query.q) return countOrders(organizationId, filters);
  const { lo, hi, hiInclusive } = dateBounds(query);
  const bounds = sql`${lo ?? sql`null::timestamptz`}, ${hi ?? sql`null::timestamptz`}, ${hiInclusive}::boolean`;
  const datesOnly =
    query.event_id === undefined && query.is_refunded === undefined && query.order_source === undefined && query.payment_method === undefined;
  const total = datesOnly
    ? sql<number>`count_orders_created_between(${organizations.id}, ${bounds})`
    : sql<number>`count_orders_matching(${organizations.id}, ${bounds}, ${query.event_id ?? null}::uuid, ${query.is_refunded ?? null}::boolean, ${query.order_source ?? null}::text, ${query.payment_method ?? null}::text)`;
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
  const direction = query.order === "asc" ? asc : desc;
  const ordering = [direction(SORT_KEYS[query.sort]), direction(orders.id)];
  // With q the page visits every match anyway (they come from the trigram indexes, not in sort order), so
  // the same pass counts them instead of a second evaluation of the index union. A cursor page sees only
  // the matches after the cursor, and a page past the end none at all: those count apart.
  const countInPage = Boolean(query.q) && !after;
  // A deep page in the second half is read from the end, in the reverse order, so the index scan skips the
  // orders after the page instead of the (more) orders before it. That needs the total first, which the
  // trigger-kept counters give in a few ms; with q the count is the search itself, so q pages stay as they are.
  const knownTotal = !query.q && !after && query.from >= FROM_END_MIN_OFFSET ? await countTransactions(organizationId, query, filters) : undefined;
  const window =
    knownTotal !== undefined && query.from >= knownTotal / 2
      ? fromEndWindow(query, knownTotal)
      : // One order beyond the page tells whether there is a next one.
        { ordering, offset: query.from, limit: query.size + 1 };
  const matches = (countInPage ? sql<number | null>`count(*) over ()` : sql<number | null>`null::bigint`).as("matches");
  const searched = Boolean(query.q && usesTrigrams(query.q));
  const page = (
    searched
      ? searchedPage(organizationId, query, after, countInPage)
      : // Deferred join: the page's ids come from an index-only scan (the sort indexes INCLUDE what the date
        // filter needs), so a deep `from` skips index entries instead of whole rows.
        db
          .select({ pageId: sql<string>`${orders.id}`.as("page_id"), matches })
          .from(orders)
          .where(and(eq(orders.organizationId, organizationId), ...filters, after))
          .orderBy(...window.ordering)
          .limit(window.limit)
          .offset(window.offset)
  ).as("page");
  const pageRows = sql`select ${transactionOrderColumns}, ${CURSOR_KEYS[query.sort].text} as cursor_key, "page"."matches" as matches
    from ${page} inner join ${orders} on ${orders.id} = "page"."page_id" order by ${sql.join(ordering, sql`, `)}`;
  const [rows, counted] = await Promise.all([
    // The q search's plan is its shape's, whatever the fragment (searchedPage): planned once per connection.
    (searched ? executeWithGenericPlan(pageRows) : db.execute(pageRows)).then((result) =>
      rowsOf<TransactionOrderRow & { cursor_key: string; matches: number | string | null }>(result),
    ),
    countInPage || knownTotal !== undefined ? knownTotal : countTransactions(organizationId, query, filters),
  ]);
  const total =
    counted ??
    (rows[0] ? Number(rows[0].matches) : query.from === 0 ? 0 : await countTransactions(organizationId, query, filters));
  const last = rows.length > query.size ? rows[query.size - 1] : undefined;
  return {
    total_count: total,
    orders: await serializeTransactionOrders(db, rows.slice(0, query.size)),
    ...(last && { next_cursor: encodeCursor({ f: cursorFingerprint(query), k: last.cursor_key, i: last.uuid }) }),
  };
}

/** From this offset on, a page may be read from the end (searchTransactions); shallower pages count in parallel. */
const FROM_END_MIN_OFFSET = 1_000;

/**
 * The page's window in the reverse ordering, for `total` matching orders: the same orders as offset `from` (and
 * one beyond the page, telling whether there is a next one) in the query's ordering.
 */
function fromEndWindow(query: TransactionsQuery, total: number) {
  const reverse = query.order === "asc" ? desc : asc;
  const lastPosition = total - 1 - query.from;
  const offset = Math.max(0, lastPosition - query.size);
  return {
    ordering: [reverse(SORT_KEYS[query.sort]), reverse(orders.id)],
    offset,
    limit: Math.max(0, lastPosition - offset + 1),
  };
}

/**
 * The page of a `q` search from three characters on: each alternative's matches (qAlternatives) come from its
 * own index with their sort key, other filters applied, and those are sorted. Joining them back to orders for
 * the sort key instead would read every order of the organization. Each branch leaves out the orders an
 * earlier one matched, so the branches are disjoint: UNION ALL, no deduplication of tens of thousands of
 * matches. A branch that reads rows tests the earlier alternatives on them (the first, index-only branch needs
 * no such test); one whose index gives ids (a common surname is also a word of the same orders' e-mails)
 * subtracts the earlier branches' ids first and reads only the orders left. With `count`, every row carries the
 * number of matches, counted once from the materialized matches.
 */
function searchedPage(organizationId: string, query: TransactionsQuery, after: SQL | undefined, count: boolean) {
  const direction = query.order === "asc" ? asc : desc;
  const others = filtersOf(organizationId, { ...query, q: undefined });
  const alternatives = qAlternatives(organizationId, query.q!);
  // Every branch has the same columns: the order's id and its sort key.
  const columns = (id: SQLWrapper, key: SQLWrapper) => ({ id: sql<string>`${id}`.as("id"), key: sql`${key}`.as("sort_key") });
  const matching = (condition: SQL | undefined) =>
    db
      .select(columns(orders.id, SORT_KEYS[query.sort]))
      .from(orders)
      .where(and(eq(orders.organizationId, organizationId), ...others, after, condition));
  const branchName = (i: number) => `q_branch_${i}`;
  const branches = alternatives.map((alternative, i) => {
    const earlierRows = alternatives.slice(0, i).map((earlierAlternative) => earlierAlternative.row);
    const byRows = and(alternative.indexed, earlierRows.length ? sql`(${or(...earlierRows)}) is not true` : undefined);
    if (!alternative.words) return db.$with(branchName(i)).as(matching(byRows));
    // The ids minus those of the earlier branches (a hash anti-join on ids alone), then each order left read
    // by its primary key: an array, so never a scan of the organization's orders whatever the estimates. Only
    // one of the two halves runs: the other's one-time filter is false.
    const earlierIds = alternatives
      .slice(0, i)
      .map((_, j) => sql`not exists (select from ${sql.identifier(branchName(j))} as earlier where earlier.id = candidates.id)`);
    const left = sql`array(select candidates.id from (${alternative.words.ids}) as candidates where ${and(sql`true`, ...earlierIds)})`;
    const { inDomain } = alternative.words;
    return db
      .$with(branchName(i))
      .as(unionAll(matching(and(sql`not ${inDomain}`, sql`${orders.id} = any(${left})`)), matching(and(inDomain, byRows))));
  });
  const [first, second, ...rest] = branches.map((branch) => db.select({ id: branch.id, key: branch.key }).from(branch));
  const matched = db.$with("matched").as(unionAll(first!, second!, ...rest));
  const matches = (count ? sql<number | null>`(select count(*) from ${matched})` : sql<number | null>`null::bigint`).as("matches");
  return db
    .with(...branches, matched)
    .select({ pageId: sql<string>`${matched.id}`.as("page_id"), matches })
    .from(matched)
    .orderBy(direction(matched.key), direction(matched.id))
    .limit(query.size + 1)
    .offset(query.from);
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
