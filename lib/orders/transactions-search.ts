import { and, asc, desc, eq, fillPlaceholders, gte, lt, or, sql, type Query, type SQL, type SQLWrapper } from "drizzle-orm";
import { PgDialect, unionAll } from "drizzle-orm/pg-core";
import { db, executeWithGenericPlan, rowsOf, statementWithGenericPlan } from "@/db/client";
import { events, orderCustomerNames, orderDailySales, orderEmailWordOrders, orders, organizations } from "@/db/schema";
import type { TransactionsQuery } from "./order-schemas";
import { countOrders, organizationOrderCount } from "./orders";
import { cursorFingerprint, encodeCursor } from "./transactions-cursor";
import {
  CURSOR_KEYS,
  cursorCondition,
  dateBounds,
  dateFilters,
  EMAIL_WORD_SORT_KEYS,
  filtersOf,
  filtersOnlyDates,
  qAlternatives,
  qTermsOf,
  SORT_KEYS,
  usesTrigrams,
  type QTerms,
} from "./transactions-filters";
import { serializeTransactionOrders, transactionOrderColumns, type TransactionOrder, type TransactionOrderRow } from "./transaction-order";

/**
 * The arguments of count_orders_matching and order_date_page_start after the organization: the query's date bounds
 * and its event, refund, channel and payment method filters (null when absent).
 */
function matchingArguments(query: TransactionsQuery): SQL {
  const { lo, hi, hiInclusive } = dateBounds(query);
  return sql`${lo ?? sql`null::timestamptz`}, ${hi ?? sql`null::timestamptz`}, ${hiInclusive}::boolean,
    ${query.event_id ?? null}::uuid, ${query.is_refunded ?? null}::boolean, ${query.order_source ?? null}::text, ${query.payment_method ?? null}::text`;
}

/**
 * The exact count for the query's filters. Without q, it sums whole days of the trigger-kept daily tables and
 * counts only the partial days at the ends (count_orders_matching), instead of every order in the range.
 */
async function countTransactions(organizationId: string, query: TransactionsQuery, filters: SQL[]): Promise<number> {
  // The daily tables know dates, events, refund state, channels and payment methods; q counts the orders.
  if (filters.length === 0 || query.q) return countOrders(organizationId, filters);
  const [row] = await db
    .select({ total: sql<number>`count_orders_matching(${organizations.id}, ${matchingArguments(query)})`.mapWith(Number) })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row?.total ?? 0;
}

type PageRow = TransactionOrderRow & { cursor_key: string; matches: number | string | null };

/**
 * GET /analytics_search/api/transactions: one page of 2.2 Orders, the exact count for the same filters, and
 * the cursor of the next page unless this is the last.
 */
export async function searchTransactions(
  organizationId: string,
  query: TransactionsQuery,
): Promise<{ total_count: number; orders: TransactionOrder[]; next_cursor?: string }> {
  const { rows, total: counted } = query.q && usesTrigrams(query.q) ? await searchedRows(organizationId, query) : await listedRows(organizationId, query);
  const total =
    counted ??
    (rows[0] ? Number(rows[0].matches) : query.from === 0 ? 0 : await countTransactions(organizationId, query, filtersOf(organizationId, query)));
  const last = rows.length > query.size ? rows[query.size - 1] : undefined;
  return {
    total_count: total,
    orders: await serializeTransactionOrders(db, rows.slice(0, query.size)),
    ...(last && { next_cursor: encodeCursor({ f: cursorFingerprint(query), k: last.cursor_key, i: last.uuid }) }),
  };
}

/** The orders of a page (`page`: its order ids as page_id, and matches) with their cursor keys, in the query's order. */
function pageRowsOf(page: SQL, query: TransactionsQuery): SQL {
  const direction = query.order === "asc" ? asc : desc;
  return sql`select ${transactionOrderColumns}, ${CURSOR_KEYS[query.sort].text} as cursor_key, "page"."matches" as matches
    from (${page}) as "page" inner join ${orders} on ${orders.id} = "page"."page_id"
    order by ${direction(SORT_KEYS[query.sort])}, ${direction(orders.id)}`;
}

/**
 * A page without `q` (or with one too short for the trigram indexes), and its total unless the rows carry it. The
 * deferred join: the page's ids come from an index-only scan (the sort indexes INCLUDE what the date filter needs),
 * so a deep `from` skips index entries instead of whole rows, and a deep page skips few even of those: in date order
 * it starts from the day the per-day counters place it in (datePageFromCounters), in the other sorts from whichever
 * end of the ordering is nearer.
 */
async function listedRows(organizationId: string, query: TransactionsQuery): Promise<{ rows: PageRow[]; total?: number }> {
  const filters = filtersOf(organizationId, query);
  const after = query.cursor && cursorCondition(query, query.cursor);
  // A short `q` is one scan of the organization's orders: the same pass counts them (see searchedRows).
  const countInPage = Boolean(query.q) && !after;
  const deep = !query.q && !after && query.from >= DEEP_PAGE_MIN_OFFSET;
  const fromDayCounters = deep && query.sort === "date";
  // A deep page in another sort, in the second half, is read from the end (offsetPage), which needs the total first:
  // the trigger-kept counters give it in a few ms.
  const knownTotal = deep && !fromDayCounters ? await countTransactions(organizationId, query, filters) : undefined;
  const page = fromDayCounters
    ? datePageFromCounters(organizationId, query, filters)
    : offsetPage(organizationId, query, [...filters, after], countInPage, knownTotal);
  const [rows, total] = await Promise.all([
    db.execute(pageRowsOf(page, query)).then((result) => rowsOf<PageRow>(result)),
    countInPage ? undefined : (knownTotal ?? countTransactions(organizationId, query, filters)),
  ]);
  return { rows, total };
}

/**
 * A page (and one order beyond it) by its offset in the query's ordering, or, with the `total` known and the page in
 * the second half, in the reverse ordering (fromEndWindow), so the index scan skips the orders after the page
 * instead of the (more) orders before it. With `countInPage` each row carries the number of matching orders.
 */
function offsetPage(organizationId: string, query: TransactionsQuery, conditions: (SQL | undefined)[], countInPage: boolean, total?: number): SQL {
  const direction = query.order === "asc" ? asc : desc;
  const window =
    total !== undefined && query.from >= total / 2
      ? fromEndWindow(query, total)
      : { ordering: [direction(SORT_KEYS[query.sort]), direction(orders.id)], offset: query.from, limit: query.size + 1 };
  const matches = (countInPage ? sql<number | null>`count(*) over ()` : sql<number | null>`null::bigint`).as("matches");
  return db
    .select({ pageId: sql<string>`${orders.id}`.as("page_id"), matches })
    .from(orders)
    .where(and(eq(orders.organizationId, organizationId), ...conditions))
    .orderBy(...window.ordering)
    .limit(window.limit)
    .offset(window.offset)
    .getSQL();
}

/**
 * A deep page in date order (and one order beyond it): order_date_page_start gives, from the per-day counters, the
 * created_at bound the page's day begins at and the orders to skip past it (fewer than that day's), in the same
 * statement as the page, so both see the same orders.
 */
function datePageFromCounters(organizationId: string, query: TransactionsQuery, filters: SQL[]): SQL {
  const descending = query.order !== "asc";
  const direction = descending ? desc : asc;
  const bound = sql`(select "bound" from "page_start")`;
  return sql`with "page_start" as materialized (
      select "bound", "remaining" from order_date_page_start(${organizationId}::uuid, ${matchingArguments(query)}, ${descending}::boolean, ${query.from}::bigint)
    )
    select ${orders.id} as "page_id", null::bigint as "matches" from ${orders}
    where ${and(eq(orders.organizationId, organizationId), ...filters, descending ? lt(orders.createdAt, bound) : gte(orders.createdAt, bound))}
    order by ${direction(orders.createdAt)}, ${direction(orders.id)}
    limit ${query.size + 1} offset (select "remaining" from "page_start")`;
}

/**
 * A page of a `q` search from three characters on (searchedPage), its statement made once per shape
 * (searchedStatement) and planned once per connection (executeWithGenericPlan). The page visits every match anyway
 * (they come from the trigram indexes, not in sort order), so its rows carry their count, instead of a second
 * evaluation of the index union; a cursor page sees only the matches after the cursor, so it counts apart. A fragment
 * in a large share of the names may read its name matches by walking the sort order instead (sortOrderWalkOf); if the
 * walk finds too few, the page is read as any other.
 */
async function searchedRows(organizationId: string, query: TransactionsQuery): Promise<{ rows: PageRow[]; total?: number }> {
  const terms = qTermsOf(query.q!);
  const walk = await sortOrderWalkOf(organizationId, query, terms);
  if (walk) {
    const rows = rowsOf<PageRow>(await executeWithGenericPlan(searchedStatement(organizationId, query, terms, walk)));
    if (rows[0] && rows[0].matches !== null) return { rows };
  }
  const [rows, total] = await Promise.all([
    executeWithGenericPlan(searchedStatement(organizationId, query, terms)).then((result) => rowsOf<PageRow>(result)),
    query.cursor ? countTransactions(organizationId, query, filtersOf(organizationId, query)) : undefined,
  ]);
  return { rows, total };
}

/**
 * How a page walks the sort order for its name matches: at most `cap` orders of it (null: all of them), testing each
 * order's name, while their number comes from the names' kept counts (order_customer_names).
 */
export interface SortOrderWalk {
  cap: number | null;
}

/** How many times the orders that evenly spread name matches would need a walk reads before it gives up. */
const WALK_SLACK = 4;
/** A walked order reads its row for the name: about as much as this many entries of the name matches' index ranges. */
const WALKED_ORDER_COST = 4;

/**
 * Whether a `q` page whose `window` (its offset, size and one more) is read from `nameMatches` of the organization's
 * `orders` reads those by walking the sort order: when even a walk that finds the matches sparser than their share
 * reads fewer rows than their index ranges hold, as for a fragment in a large share of the names (`berg`, a fifth
 * of them), where the ranges are every match, all counted and sorted for the first 101. If the matches cluster
 * away from the page's end of the sort order, the walk stops at its `cap` and the page is read from the ranges.
 */
export function sortOrderWalk({ nameMatches, orders, window }: { nameMatches: number; orders: number; window: number }): SortOrderWalk | undefined {
  if (nameMatches <= 0) return undefined;
  const cap = Math.ceil((WALK_SLACK * window * orders) / nameMatches);
  if (Math.min(cap, orders) * WALKED_ORDER_COST >= nameMatches) return undefined;
  return { cap: cap >= orders ? null : cap };
}

/** The organization's orders whose lower-cased name is like `pattern`, from the names' kept counts. */
const nameMatchCount = (organizationId: string, pattern: string) =>
  sql<number>`(select coalesce(sum(${orderCustomerNames.orderCount}), 0) from ${orderCustomerNames}
    where ${orderCustomerNames.organizationId} = ${organizationId} and ${orderCustomerNames.name} like ${pattern})`;

const nameMatchesAndOrders = statementWithGenericPlan(
  () => sql`select ${nameMatchCount(placeholder("organization_id"), placeholder("pattern"))} as "name_matches",
    ${organizationOrderCount(placeholder("organization_id"))} as "orders"`,
);

/**
 * The walk of a `q` page (sortOrderWalk) without other filters or a cursor, from its name matches and the
 * organization's orders, both kept counts; undefined to read the page from the index ranges. A `q` of digits (an
 * order number, a phone's) skips the counts' round trip: names seldom hold digits.
 */
async function sortOrderWalkOf(organizationId: string, query: TransactionsQuery, terms: QTerms): Promise<SortOrderWalk | undefined> {
  if (query.cursor || query.date_from || query.date_to || !filtersOnlyDates(query) || terms.digitsOnly) return undefined;
  const [counts] = (await nameMatchesAndOrders({ organization_id: organizationId, pattern: terms.pattern })) as {
    name_matches: number | string;
    orders: number | string;
  }[];
  return counts && sortOrderWalk({ nameMatches: Number(counts.name_matches), orders: Number(counts.orders), window: query.from + query.size + 1 });
}

/** A value of a statement made once per shape: a placeholder, filled per execution (fillPlaceholders). */
const placeholder = <T>(name: string) => sql.placeholder(name) as unknown as T;

const dialect = new PgDialect();
/** The rendered statements of searchedStatement by shape: at most a few thousand (sorts × filters present × q's kind). */
const searchedStatements = new Map<string, Query>();

/**
 * The statement of a `q` search's page, with the query's values: built and rendered once per shape (sort, order,
 * which filters, a cursor, what kind of `q`), because drizzle's building and rendering of its CTEs cost the server
 * more CPU than PostgreSQL's running them for an order number.
 */
function searchedStatement(organizationId: string, query: TransactionsQuery, terms: QTerms, walk?: SortOrderWalk): Query {
  const { date_from: from, date_to: to, cursor } = query;
  const shape = JSON.stringify([
    query.sort,
    query.order,
    Boolean(from),
    to ? to.wholeDay : null,
    [query.event_id, query.order_source, query.payment_method].map(Boolean),
    query.is_refunded !== undefined,
    Boolean(cursor),
    terms.hasSpace,
    terms.emailWords,
    terms.hasDigit,
    terms.orderNumber !== undefined,
    terms.phoneDigits !== undefined,
    Boolean(walk),
  ]);
  let statement = searchedStatements.get(shape);
  if (!statement) {
    const template: TransactionsQuery = {
      ...query,
      date_from: from && { ...from, text: placeholder("date_from") },
      date_to: to && { ...to, text: placeholder("date_to") },
      event_id: query.event_id && placeholder("event_id"),
      is_refunded: query.is_refunded === undefined ? undefined : placeholder("is_refunded"),
      order_source: query.order_source && placeholder("order_source"),
      payment_method: query.payment_method && placeholder("payment_method"),
      cursor: cursor && { ...cursor, k: placeholder("cursor_key"), i: placeholder("cursor_id") },
    };
    const templateTerms: QTerms = {
      ...terms,
      pattern: placeholder("pattern"),
      wordPattern: placeholder("word_pattern"),
      orderNumber: terms.orderNumber === undefined ? undefined : placeholder("order_number"),
      phoneDigits: terms.phoneDigits === undefined ? undefined : placeholder("phone_digits"),
    };
    statement = dialect.sqlToQuery(pageRowsOf(searchedPage(placeholder("organization_id"), template, templateTerms, Boolean(walk)).getSQL(), query));
    searchedStatements.set(shape, statement);
  }
  const values = {
    organization_id: organizationId,
    pattern: terms.pattern,
    word_pattern: terms.wordPattern,
    order_number: terms.orderNumber,
    phone_digits: terms.phoneDigits,
    date_from: from?.text,
    date_to: to?.text,
    event_id: query.event_id,
    is_refunded: query.is_refunded,
    order_source: query.order_source,
    payment_method: query.payment_method,
    cursor_key: cursor?.k,
    cursor_id: cursor?.i,
    limit: query.size + 1,
    offset: query.from,
    window: query.from + query.size + 1,
    walk_cap: walk?.cap,
  };
  return { sql: statement.sql, params: fillPlaceholders(statement.params, values) };
}

/**
 * From this offset on, a page starts from its day's counters or from the nearer end (listedRows); a shallower page
 * skips fewer index entries than finding either costs, and counts in parallel.
 */
const DEEP_PAGE_MIN_OFFSET = 1_000;

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
 * no such test); the e-mail's words give only the orders the name does not match, with their sort keys, so with no
 * filter but dates those orders are not read at all (a common surname's e-mail matches can be tens of thousands of
 * orders), and with other filters only they are read. Unless after a cursor, every row carries the
 * number of matches, counted once from the materialized matches. With `walk` (sortOrderWalk) the name's branch is
 * instead the first `window` name matches in the sort order, found by walking it for at most `walk_cap` orders, and
 * the count takes the name matches from their kept counts; it is null when the walk stopped at its cap short of the
 * window, which the caller reads as "read the page from the ranges". Its values are searchedStatement's placeholders.
 */
function searchedPage(organizationId: string, query: TransactionsQuery, terms: QTerms, walk: boolean) {
  const direction = query.order === "asc" ? asc : desc;
  const others = filtersOf(organizationId, { ...query, q: undefined });
  const after = query.cursor && cursorCondition(query, query.cursor);
  const alternatives = qAlternatives(organizationId, terms);
  // Every branch has the same columns: the order's id and its sort key.
  const columns = (id: SQLWrapper, key: SQLWrapper) => ({ id: sql<string>`${id}`.as("id"), key: sql`${key}`.as("sort_key") });
  const matching = (condition: SQL | undefined) =>
    db
      .select(columns(orders.id, SORT_KEYS[query.sort]))
      .from(orders)
      .where(and(eq(orders.organizationId, organizationId), ...others, after, condition));
  // The e-mail's word rows hold the sort key and created_at: with no other filter they are the page's rows (an order
  // under two matching words once). Otherwise each of their orders is read by its primary key for the filters: an
  // array, so never a scan of the organization's orders whatever the estimates.
  const byWords = (rows: SQL, ids: SQLWrapper, inUse: SQL): ReturnType<typeof matching> =>
    filtersOnlyDates(query)
      ? // The same two columns from another table, which drizzle's union types do not allow for.
        (db
          .selectDistinct(columns(orderEmailWordOrders.orderId, EMAIL_WORD_SORT_KEYS[query.sort]))
          .from(orderEmailWordOrders)
          .where(
            and(
              inUse,
              rows,
              ...dateFilters(query, orderEmailWordOrders.createdAt),
              query.cursor && cursorCondition(query, query.cursor, { key: EMAIL_WORD_SORT_KEYS[query.sort], id: orderEmailWordOrders.orderId }),
            ),
          ) as unknown as ReturnType<typeof matching>)
      : matching(and(inUse, sql`${orders.id} = any(array(${ids}))`));
  const branchName = (i: number) => `q_branch_${i}`;
  // The first `window` orders of the sort order whose name matches, from at most `walk_cap` of the organization's.
  const walkedNames = () => {
    const walked = db
      .select({ ...columns(orders.id, SORT_KEYS[query.sort]), name: sql<string>`lower(${orders.customerName})`.as("lower_name") })
      .from(orders)
      .where(eq(orders.organizationId, organizationId))
      .orderBy(direction(SORT_KEYS[query.sort]), direction(orders.id))
      .limit(placeholder("walk_cap"))
      .as("walked");
    return db
      .select({ id: walked.id, key: walked.key })
      .from(walked)
      .where(sql`${walked.name} like ${terms.pattern}`)
      .orderBy(direction(walked.key), direction(walked.id))
      .limit(placeholder("window")) as unknown as ReturnType<typeof matching>;
  };
  const branches = alternatives.map((alternative, i) => {
    if (i === 0 && walk) return db.$with(branchName(i)).as(walkedNames());
    const earlierRows = alternatives.slice(0, i).map((earlierAlternative) => earlierAlternative.row);
    const byRows = and(alternative.indexed, earlierRows.length ? sql`(${or(...earlierRows)}) is not true` : undefined);
    if (!alternative.words) return db.$with(branchName(i)).as(matching(byRows));
    // The words' rows leave out the name's matches (the e-mail's only earlier alternative) by themselves. Only one
    // of the two halves runs: the other's one-time filter is false.
    const { rows, ids, inDomain } = alternative.words;
    return db.$with(branchName(i)).as(unionAll(byWords(rows, ids, sql`not ${inDomain}`), matching(and(inDomain, byRows))));
  });
  const [first, second, ...rest] = branches.map((branch) => db.select({ id: branch.id, key: branch.key }).from(branch));
  const matched = db.$with("matched").as(unionAll(first!, second!, ...rest));
  const [names, ...afterNames] = branches;
  const walkedCount = sql`case when (select count(*) from ${names}) = ${placeholder("window")}::bigint or ${placeholder("walk_cap")}::bigint is null
    then ${nameMatchCount(organizationId, terms.pattern)} + ${sql.join(
      afterNames.map((branch) => sql`(select count(*) from ${branch})`),
      sql` + `,
    )} end`;
  const count = query.cursor ? sql`null::bigint` : walk ? walkedCount : sql`(select count(*) from ${matched})`;
  const matches = sql<number | null>`${count}`.as("matches");
  return db
    .with(...branches, matched)
    .select({ pageId: sql<string>`${matched.id}`.as("page_id"), matches })
    .from(matched)
    .orderBy(direction(matched.key), direction(matched.id))
    .limit(placeholder("limit"))
    .offset(placeholder("offset"));
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
