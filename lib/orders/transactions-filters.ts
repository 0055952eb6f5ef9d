import { and, eq, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { db } from "@/db/client";
import { orderCustomerNames, orderEmailDomainWords, orderEmailWordOrders, orderEmailWords, orders } from "@/db/schema";
import type { TransactionsQuery } from "./order-schemas";

/*
 * Which orders the transactions search, its summary and its export match: the filters, the `q` alternatives
 * and the sort keys, as SQL over `orders`. Their values may be drizzle placeholders (see searchedStatement).
 */

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
export const CURSOR_KEYS = {
  date: {
    text: sql<string>`to_char(${orders.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    value: (text: string) => sql`${text}::timestamptz`,
  },
  price: { text: sql<string>`${orders.totalPrice}::text`, value: (text: string) => sql`${text}::int` },
  customer_name: { text: sql<string>`lower(${orders.customerName})`, value: (text: string) => sql`${text}::text` },
} as const;

/**
 * The sort keys as order_email_word_orders copies them for each order (db/schema/orders.ts), equal to SORT_KEYS of
 * the same order: the e-mail matches of `q` are sorted there instead of in orders.
 */
export const EMAIL_WORD_SORT_KEYS = {
  date: orderEmailWordOrders.createdAt,
  price: orderEmailWordOrders.totalPrice,
  customer_name: orderEmailWordOrders.lowerCustomerName,
} as const;

/** `q` fragments shorter than a trigram cannot use the trigram indexes. */
const TRIGRAM = 3;

/** The created_at bounds of the query as timestamptz expressions; a bare date_to covers its whole day. */
export function dateBounds(query: Pick<TransactionsQuery, "date_from" | "date_to">): { lo?: SQL; hi?: SQL; hiInclusive: boolean } {
  const { date_from: from, date_to: to } = query;
  return {
    lo: from && sql`${from.text}::timestamptz`,
    hi: to && (to.wholeDay ? sql`${to.text}::timestamptz + interval '1 day'` : sql`${to.text}::timestamptz`),
    hiInclusive: Boolean(to && !to.wholeDay),
  };
}

/** The query's date bounds as conditions on `createdAt` (orders', or a copy of it). */
export function dateFilters(query: Pick<TransactionsQuery, "date_from" | "date_to">, createdAt: SQLWrapper = orders.createdAt): SQL[] {
  const { lo, hi, hiInclusive } = dateBounds(query);
  return [lo && sql`${createdAt} >= ${lo}`, hi && (hiInclusive ? sql`${createdAt} <= ${hi}` : sql`${createdAt} < ${hi}`)].filter(
    (filter) => filter !== undefined,
  );
}

/** True when the query filters by nothing but dates (and `q`): what order_email_word_orders can answer alone. */
export const filtersOnlyDates = (query: TransactionFilters) =>
  !query.event_id && query.is_refunded === undefined && !query.order_source && !query.payment_method;

/** The query's filters beyond the organization; empty when it asks for every order. */
export function filtersOf(organizationId: string, query: TransactionFilters): SQL[] {
  const filters = dateFilters(query);
  if (query.event_id) filters.push(eq(orders.eventId, query.event_id));
  if (query.is_refunded !== undefined) filters.push(eq(orders.isRefunded, query.is_refunded));
  if (query.order_source) filters.push(eq(orders.orderSource, query.order_source));
  if (query.payment_method) filters.push(eq(orders.paymentMethod, query.payment_method));
  if (query.q) filters.push(qFilter(organizationId, query.q));
  return filters;
}

const Q_COLUMNS = [orders.customerEmail, orders.customerName, orders.customerPhone];

const DIGITS_ONLY = /^\d+$/;

/** An exact order number `q` may name (a whole number within the column's range). */
function orderNumberOf(q: string): number | undefined {
  return DIGITS_ONLY.test(q) && Number(q) <= MAX_ORDER_NUMBER ? Number(q) : undefined;
}

/** The shortest `q` of digits alone that the phone's index of four-digit runs answers (db/sql/digit-grams.sql). */
const DIGIT_GRAM = 4;

/** True when `q` is long enough for the trigram indexes (see qFilter). */
export const usesTrigrams = (q: string) => [...q.toLowerCase()].length >= TRIGRAM;

/** What separates the words of an address (email_words): any run of characters other than a-z and 0-9. */
const EMAIL_WORD_SEPARATORS = /[^a-z0-9]+/;

/**
 * The LIKE pattern of the words that hold a `q` with a separator (`nna.lin`), of one of its runs between separators,
 * or undefined when it has none (`.@.`): an address holds `q` only where that run is a whole word (a run between two
 * separators), the end of one (the first run, which a separator follows) or the start of one (the last run). A
 * whole word is the narrowest; otherwise the longer of the two ends, since a word ending in `a` or starting with
 * `l` is in most addresses.
 */
function separatedRunPattern(lowered: string): string | undefined {
  const runs = lowered.split(EMAIL_WORD_SEPARATORS);
  const inner = runs.slice(1, -1).reduce((longest, run) => (run.length > longest.length ? run : longest), "");
  if (inner) return inner;
  const [first, last] = [runs[0]!, runs.at(-1)!];
  if (!first && !last) return undefined;
  return first.length >= last.length ? `%${first}` : `${last}%`;
}

/**
 * What qAlternatives needs of a `q` from three characters on: its values (the LIKE pattern, wildcards in the input
 * escaped; the order number it may name) and what decides the statement's shape. The values may be placeholders
 * (searchedStatement).
 */
export interface QTerms {
  pattern: string;
  orderNumber?: number;
  hasSpace: boolean;
  /**
   * How the e-mail's words answer `q` (emailWordOrderRows): "word" when `q` is only letters and digits, so in a word
   * wherever it is in an address; "separated" when it has a separator and a run to look words up by; else undefined.
   */
  emailWords?: "word" | "separated";
  /** The LIKE pattern of the words looked up: `pattern` itself for "word", one of its runs' for "separated". */
  wordPattern: string;
  hasDigit: boolean;
  /** Digits alone (an order number, a phone's): seldom in a name. */
  digitsOnly: boolean;
  /** `q` itself when it is DIGIT_GRAM or more digits alone, which the phone's runs of four digits answer. */
  phoneDigits?: string;
}

export function qTermsOf(q: string): QTerms {
  const lowered = q.toLowerCase();
  const pattern = `%${lowered.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const separated = EMAIL_WORD_SEPARATORS.test(lowered);
  const runPattern = separated ? separatedRunPattern(lowered) : undefined;
  const digitsOnly = DIGITS_ONLY.test(q);
  return {
    pattern,
    orderNumber: orderNumberOf(q),
    hasSpace: q.includes(" "),
    emailWords: !separated ? "word" : runPattern ? "separated" : undefined,
    wordPattern: runPattern ?? pattern,
    hasDigit: /\d/.test(q),
    digitsOnly,
    phoneDigits: digitsOnly && q.length >= DIGIT_GRAM ? q : undefined,
  };
}

/**
 * One alternative of `q`: the test on an order's own columns and the condition its index answers on orders;
 * for the e-mail's words also the matching orders that the name (the first alternative) does not match, as rows of
 * order_email_word_orders (`rows`, a condition on that table, which holds their sort keys) and as their ids, read
 * from an index without visiting any order, which answer instead of `indexed` unless `inDomain` holds (an
 * uncorrelated test, decided once per statement).
 */
interface QAlternative {
  row: SQL;
  indexed: SQL;
  words?: { rows: SQL; ids: ReturnType<typeof emailWordOrderIds>; inDomain: SQL };
}

/**
 * The orders whose e-mail's local part contains `pattern` (a LIKE pattern of letters and digits) and whose name
 * does not, as a condition on order_email_word_orders: the organization's local-part words that contain it (by
 * trigrams, in order_email_words), then each word's orders (a range of order_email_word_orders' primary key) whose
 * name, included in that key's index, does not contain it. Exact, unlike the trigram index on orders, whose every
 * candidate is rechecked in its row; an order with two such words comes twice. The name test leaves out what the
 * name's alternative matches without visiting the rows: a common surname is also a word of the same orders'
 * e-mails. The word ids are an array, so they are looked up by their trigram index on their own, whatever the plan
 * around them, and then read in one index scan. A `pattern` without digits skips the rows whose words' letters are all
 * in the name (letters_in_name): such a row's name holds any digit-free fragment of its words, so the name test
 * would leave it out anyway; the rest are a partial index (order_email_word_orders_unnamed_idx), so a common surname
 * reads the few orders whose address spells it otherwise (`sjoberg` for Sjöberg) instead of all of them, under only
 * the words that have such rows (unnamed_orders: 5,350 of `berg`'s 13,000 at 1,000,000 orders).
 *
 * A `q` with a separator ("separated") looks up instead the words its run must be (`wordPattern`, separatedRunPattern)
 * and tests `pattern` on the address in the same index (lower_customer_email): `nna.` reads the rows of `anna` and
 * `hanna` (28,554 orders at 1,000,000), 22 ms for its page against 129 ms for the trigram index on orders, which
 * rechecks each candidate in its row. Their letters_in_name says nothing of such a `q`, which is in no word.
 */
function emailWordOrderRows(organizationId: string, { pattern, wordPattern, emailWords, hasDigit }: QTerms): SQL {
  const unnamedOnly = emailWords === "word" && !hasDigit;
  const words = db
    .select({ id: orderEmailWords.id })
    .from(orderEmailWords)
    .where(
      and(
        eq(orderEmailWords.organizationId, organizationId),
        sql`${orderEmailWords.word} like ${wordPattern}`,
        unnamedOnly ? orderEmailWords.unnamedOrders : undefined,
      ),
    );
  return and(
    sql`${orderEmailWordOrders.wordId} = any(array(${words}))`,
    sql`${orderEmailWordOrders.lowerCustomerName} not like ${pattern}`,
    unnamedOnly ? sql`not ${orderEmailWordOrders.lettersInName}` : undefined,
    emailWords === "separated" ? sql`${orderEmailWordOrders.lowerCustomerEmail} like ${pattern}` : undefined,
  )!;
}

/** The order ids of emailWordOrderRows. */
function emailWordOrderIds(rows: SQL) {
  return db
    .select({ id: sql<string>`${orderEmailWordOrders.orderId}`.as("id") })
    .from(orderEmailWordOrders)
    .where(rows);
}

/**
 * True when a word of the organization's e-mail domains (order_email_domain_words), which lead to no orders, is like
 * `wordPattern` (QTerms): the matches of such a `q` (`gmail`, `l.com`) are read by the trigram index on orders.
 * Otherwise the local parts' words (emailWordOrderRows) hold every e-mail match.
 */
function inEmailDomain(organizationId: string, wordPattern: string): SQL {
  const domainWords = db
    .select({ word: orderEmailDomainWords.word })
    .from(orderEmailDomainWords)
    .where(and(eq(orderEmailDomainWords.organizationId, organizationId), sql`${orderEmailDomainWords.word} like ${wordPattern}`));
  return sql`exists (${domainWords})`;
}

/**
 * The alternatives of `q` from three characters on, each answered by its own index: for the name the
 * organization's distinct names (order_customer_names, by trigrams), whose orders are ranges of
 * orders_org_customer_name_idx read without visiting the rows; for the e-mail its local parts' words
 * (emailWordOrderRows) when `q` has a run of letters and digits to look them up by and that run's words are in no
 * domain, else its trigram index (unless `q` has a space); the phone's index of four-digit runs for four or more
 * digits, else its trigram index; the order number's unique index. Each is the same substring test as LIKE.
 */
export function qAlternatives(organizationId: string, terms: QTerms): QAlternative[] {
  const { pattern, orderNumber, hasSpace, phoneDigits } = terms;
  const like = (column: (typeof Q_COLUMNS)[number]) => sql`lower(${column}) like ${pattern}`;
  const names = db
    .select({ name: orderCustomerNames.name })
    .from(orderCustomerNames)
    .where(and(eq(orderCustomerNames.organizationId, organizationId), sql`${orderCustomerNames.name} like ${pattern}`));
  const alternatives: QAlternative[] = [{ indexed: sql`lower(${orders.customerName}) in (${names})`, row: like(orders.customerName) }];
  // No e-mail has a space (orders_customer_email_no_space), and a full name's trigrams match every first.last address.
  if (!hasSpace) {
    const rows = terms.emailWords && emailWordOrderRows(organizationId, terms);
    const words = rows && { rows, ids: emailWordOrderIds(rows), inDomain: inEmailDomain(organizationId, terms.wordPattern) };
    alternatives.push({ indexed: like(orders.customerEmail), row: like(orders.customerEmail), words });
  }
  // The runs' index finds the phones that hold every four-digit window of `q`; strpos, which no index answers, keeps
  // those that hold `q` itself (a planner that also used the trigram index's LIKE would read its long lists).
  const phone = phoneDigits
    ? sql`digit_grams(${orders.customerPhone}) @> digit_grams(${phoneDigits}::text) and strpos(${orders.customerPhone}, ${phoneDigits}::text) > 0`
    : like(orders.customerPhone);
  alternatives.push({ indexed: phone, row: like(orders.customerPhone) });
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
  const branches = qAlternatives(organizationId, qTermsOf(q)).flatMap(({ indexed, words }) =>
    words
      ? [sql`select ids.id from (${words.ids}) as ids where not ${words.inDomain}`, sql`${ofOrganization} and ${indexed} and ${words.inDomain}`]
      : [sql`${ofOrganization} and ${indexed}`],
  );
  return sql`${orders.id} in (${sql.join(branches, sql` union `)})`;
}

/**
 * Orders strictly after the cursor's in the query's ordering: (key, id) beyond the last page's last order; `key` and
 * `id` are orders' unless given (a copy of them, as in order_email_word_orders).
 */
export function cursorCondition(
  query: TransactionsQuery,
  cursor: NonNullable<TransactionsQuery["cursor"]>,
  { key, id }: { key: SQLWrapper; id: SQLWrapper } = { key: SORT_KEYS[query.sort], id: orders.id },
): SQL {
  const beyond = query.order === "asc" ? sql`>` : sql`<`;
  return sql`(${key}, ${id}) ${beyond} (${CURSOR_KEYS[query.sort].value(cursor.k)}, ${cursor.i}::uuid)`;
}
