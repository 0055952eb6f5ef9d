import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { campaigns, events, ticketTypes } from "./catalog";
import { organizationIdColumn, type Currency } from "./organizations";
import { createdAtColumn } from "./columns";

export const ORDER_STATUSES = ["completed", "refunded", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id),
    orderNumber: integer("order_number").notNull(),
    status: text("status").$type<OrderStatus>().notNull(),
    // Derived so it can never disagree with status; the transactions model exposes it.
    isRefunded: boolean("is_refunded")
      .notNull()
      .generatedAlwaysAs(sql`status = 'refunded'`),
    customerEmail: text("customer_email").notNull(),
    customerName: text("customer_name").notNull(),
    customerPhone: text("customer_phone"),
    paymentMethod: text("payment_method").notNull(),
    paymentMethodBrand: text("payment_method_brand").notNull(),
    orderSource: text("order_source").notNull(),
    currency: text("currency").$type<Currency>().notNull(),
    totalPrice: integer("total_price").notNull(),
    originalPrice: integer("original_price").notNull(),
    refundReason: text("refund_reason"),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    createdAt: createdAtColumn(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("orders_number_unique").on(t.organizationId, t.orderNumber),
    // One index per transactions-search sort; the uuid tie-breaker makes paging stable. Migration 0004
    // adds INCLUDE columns (created_at; customer_name) that drizzle-kit cannot express, for index-only paging.
    index("orders_org_created_idx").on(t.organizationId, t.createdAt, t.id),
    index("orders_org_price_idx").on(t.organizationId, t.totalPrice, t.id),
    index("orders_org_customer_name_idx").on(t.organizationId, sql`lower(${t.customerName})`, t.id),
    // /v1/orders lists, newest first, filtered by event and/or status.
    index("orders_org_event_idx").on(t.organizationId, t.eventId, t.createdAt, t.id),
    index("orders_org_status_idx").on(t.organizationId, t.status, t.createdAt, t.id),
    // The transactions search's `q` (a case-insensitive substring of e-mail, name or phone): one trigram
    // index per column, so each alternative is answered by its own index (pg_trgm, created by migration 0008).
    // Names are looked up in orderCustomerNames instead, then here in orders_org_customer_name_idx.
    index("orders_customer_email_trgm_idx").using("gin", sql`lower(${t.customerEmail}) gin_trgm_ops`),
    index("orders_customer_phone_trgm_idx").using("gin", sql`lower(${t.customerPhone}) gin_trgm_ops`),
    // A `q` of four or more digits (an order number, the end of a phone number) looks the phone up by its runs of
    // four digits instead (db/sql/digit-grams.sql): their trigrams are each in about 1 % of the phones.
    index("orders_customer_phone_digit_grams_idx").using("gin", sql`digit_grams(${t.customerPhone})`),
    check("orders_status_check", sql`${t.status} in ('completed','refunded','cancelled')`),
    check("orders_price_check", sql`${t.totalPrice} >= 0 and ${t.originalPrice} >= ${t.totalPrice}`),
    // An e-mail address has no space (the API validates it as one); the search relies on it to leave e-mails out
    // of a `q` with a space, such as a full name, whose trigrams would otherwise match every first.last address.
    check("orders_customer_email_no_space", sql`position(' ' in ${t.customerEmail}) = 0`),
  ],
);

/**
 * Orders per organization and UTC day, kept exact by statement-level triggers on orders
 * (db/sql/order-daily-count-*.sql), so a date-filtered transactions count sums whole days and counts only the
 * two partial ones. This and the two tables below keep each key in up to 64 slot rows that readers sum
 * (db/sql/order-counter-slot.sql), so concurrent orders of one day do not queue on one row.
 */
export const orderDailyCounts = pgTable(
  "order_daily_counts",
  {
    organizationId: organizationIdColumn(),
    day: date("day", { mode: "string" }).notNull(),
    slot: smallint("slot").notNull().default(0),
    orderCount: bigint("order_count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day, t.slot] })],
);

/**
 * Every lower-cased customer name of an organization's orders with how many orders have it, kept by triggers on
 * orders (db/sql/order-customer-names-on-*.sql), for `q`: a common name matches tens of thousands of orders, whose
 * rows a trigram index on orders would visit one by one, while a fragment matches a few distinct names here,
 * and each name's orders are one range of orders_org_customer_name_idx, read without visiting the rows. The
 * counts give a fragment's name matches without reading those ranges at all, so a fragment in a large share of
 * the names (`berg`) is counted here and its page read by walking the sort order (lib/orders/transactions-search.ts).
 * A name's count is kept in a few slot rows that readers sum (order_customer_name_slot in
 * db/sql/order-counter-slot.sql), so concurrent orders of one name do not queue on one row. A name no order has any
 * more may stay with a count of 0: it only leads to no orders.
 */
export const orderCustomerNames = pgTable(
  "order_customer_names",
  {
    organizationId: organizationIdColumn(),
    name: text("name").notNull(),
    slot: smallint("slot").notNull().default(0),
    orderCount: bigint("order_count", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.name, t.slot] }),
    index("order_customer_names_name_trgm_idx").using("gin", sql`${t.name} gin_trgm_ops`),
  ],
);

/**
 * The words of the local parts (before the last `@`) of the organization's lower-cased customer e-mails (maximal
 * runs of a-z and 0-9), each once, kept by triggers on orders (db/sql/order-email-words-on-*.sql), for `q`: a
 * fragment of only letters and digits is a substring of an e-mail exactly when it is a substring of one of its
 * words, so a few words found here by trigrams lead to their orders in orderEmailWordOrders without the lossy
 * trigram index on orders, whose every candidate is rechecked in its row. The id keys those rows (8 bytes
 * instead of the organization's 16 and the word's). A word no order has any more may stay: it only leads to no
 * orders.
 */
export const orderEmailWords = pgTable(
  "order_email_words",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: organizationIdColumn(),
    word: text("word").notNull(),
    // True once an order's row under this word has letters_in_name false (orderEmailWordOrders), never cleared (a
    // trigger on that table, db/sql/order-email-words-unnamed.sql): the e-mail-only matches of a `q` without digits
    // are only under such words, so the others are not looked up at all.
    unnamedOrders: boolean("unnamed_orders").notNull().default(false),
  },
  (t) => [
    uniqueIndex("order_email_words_organization_word_idx").on(t.organizationId, t.word),
    index("order_email_words_word_trgm_idx").using("gin", sql`${t.word} gin_trgm_ops`),
  ],
);

/**
 * The words of the domains (after the last `@`) of the organization's customer e-mails, kept like
 * orderEmailWords but leading to no orders: a domain word such as `gmail` or `com` is in a large share of all
 * addresses, so listing its orders would double the word index for matches that no search narrows. A `q` in
 * one of these words takes the trigram index on orders instead (exact after its recheck, and such a `q`
 * matches most orders anyway); a word may stay here after its last order.
 */
export const orderEmailDomainWords = pgTable(
  "order_email_domain_words",
  {
    organizationId: organizationIdColumn(),
    word: text("word").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.word] }),
    index("order_email_domain_words_word_trgm_idx").using("gin", sql`${t.word} gin_trgm_ops`),
  ],
);

/**
 * Each order under each word of its e-mail's local part (orderEmailWords, whose organization scopes it), with
 * the order's lower-cased customer name and its other sort keys (created_at, total_price), in the same transaction
 * as the order and kept when they change (db/sql/order-email-word-keys-on-update.sql): a word's orders are one range
 * of the primary key, which migrations 0041, 0045 and 0051 make INCLUDE the three and the lower-cased address
 * (drizzle-kit cannot express it). So the e-mail matches that the name already matched are left out by testing that
 * name in the index, and those left are sorted, counted and filtered by date there too, without visiting their rows
 * in orders (a common surname's e-mail matches are tens of thousands of orders at 1M). Rows go with their order (the
 * delete trigger) or their word (when an organization is deleted), so no foreign key checks each of the order's rows.
 */
export const orderEmailWordOrders = pgTable(
  "order_email_word_orders",
  {
    wordId: bigint("word_id", { mode: "number" }).notNull(),
    orderId: uuid("order_id").notNull(),
    lowerCustomerName: text("lower_customer_name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    totalPrice: integer("total_price").notNull(),
    // The lower-cased address, which a `q` with a separator (`nna.lin`) is tested against under the words one of its
    // runs must be (separatedRunPattern, lib/orders/transactions-filters.ts), in the index instead of in each
    // candidate's row of orders. An order with a new address gets new rows (db/sql/order-email-words-on-update.sql).
    lowerCustomerEmail: text("lower_customer_email").notNull(),
    // True when every run of the word between digits is in the order's name (email_word_letters_in_name): then a
    // `q` without digits that is in the word is in the name too, so the row can never be an e-mail-only match of
    // such a `q`, and order_email_word_orders_unnamed_idx leaves it out.
    lettersInName: boolean("letters_in_name").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.wordId, t.orderId] }),
    // INCLUDEs the sort keys as the primary key does (migration 0048; drizzle-kit cannot express it).
    index("order_email_word_orders_unnamed_idx").on(t.wordId, t.orderId).where(sql`not ${t.lettersInName}`),
  ],
);

/**
 * Orders per organization, UTC day, event and refund state, kept exact by statement-level triggers on
 * orders (db/sql/order-facet-count-*.sql), so transactions counts filtered by event and/or refund state
 * (with or without dates) sum these rows and count only the partial days at the ends.
 */
export const orderDailyFacetCounts = pgTable(
  "order_daily_facet_counts",
  {
    organizationId: organizationIdColumn(),
    day: date("day", { mode: "string" }).notNull(),
    eventId: uuid("event_id").notNull(),
    isRefunded: boolean("is_refunded").notNull(),
    slot: smallint("slot").notNull().default(0),
    orderCount: bigint("order_count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day, t.eventId, t.isRefunded, t.slot] })],
);

/**
 * The columns both sales tables share after their leading key: the order's event, channel, payment method and
 * refund state, the counter slot, and the figures.
 */
const salesColumns = () => ({
  eventId: uuid("event_id").notNull(),
  orderSource: text("order_source").notNull(),
  paymentMethod: text("payment_method").notNull(),
  isRefunded: boolean("is_refunded").notNull(),
  slot: smallint("slot").notNull().default(0),
  orderCount: bigint("order_count", { mode: "number" }).notNull(),
  ticketCount: bigint("ticket_count", { mode: "number" }).notNull(),
  revenue: bigint("revenue", { mode: "number" }).notNull(),
});

/**
 * Sales per organization, UTC day, event, channel, payment method and refund state: orders, tickets (sum
 * of cart item quantities) and revenue (sum of order total_price, minor units). Kept exact by triggers on
 * orders and order_items (db/sql/order-daily-sales-*.sql), so a summary over whole days reads a few thousand
 * rows instead of every order (lib/analytics/summary.ts).
 */
export const orderDailySales = pgTable(
  "order_daily_sales",
  { organizationId: organizationIdColumn(), day: date("day", { mode: "string" }).notNull(), ...salesColumns() },
  (t) => [primaryKey({ columns: [t.organizationId, t.day, t.eventId, t.orderSource, t.paymentMethod, t.isRefunded, t.slot] })],
);

/**
 * Sales per organization, UTC day, ticket type and the order's event, channel, payment method and refund
 * state: orders holding the ticket type (an order counts once under each type it holds), its tickets and its
 * items' value (quantity × unit price, minor units). Kept exact by triggers on orders and order_items
 * (db/sql/order-daily-ticket-sales-*.sql, order-items-daily-ticket-sales-on-insert.sql) in slot rows like the
 * tables above, so a summary by ticket type over whole days reads these rows instead of every cart item.
 */
export const orderDailyTicketSales = pgTable(
  "order_daily_ticket_sales",
  {
    organizationId: organizationIdColumn(),
    day: date("day", { mode: "string" }).notNull(),
    ticketTypeId: uuid("ticket_type_id").notNull(),
    ...salesColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.day, t.ticketTypeId, t.eventId, t.orderSource, t.paymentMethod, t.isRefunded, t.slot] }),
  ],
);

/** What every order item is today: the column's default, which place_order leaves to it. */
export const TICKET_PRODUCT_TYPE = "ticket";

export const orderItems = pgTable(
  "order_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    ticketTypeId: uuid("ticket_type_id")
      .notNull()
      .references(() => ticketTypes.id),
    productType: text("product_type").notNull().default(TICKET_PRODUCT_TYPE),
    // Name, category, price and VAT are copied at purchase time: later edits do not rewrite history.
    name: text("name").notNull(),
    category: text("category").notNull(),
    quantity: integer("quantity").notNull(),
    unitPrice: integer("unit_price").notNull(),
    vatPercent: doublePrecision("vat_percent").notNull(),
    eventId: uuid("event_id").notNull(),
    eventName: text("event_name").notNull(),
  },
  (t) => [
    index("order_items_order_idx").on(t.orderId),
    index("order_items_ticket_type_idx").on(t.ticketTypeId),
    check("order_items_quantity_check", sql`${t.quantity} > 0`),
  ],
);

export const orderCampaigns = pgTable(
  "order_campaigns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id),
    name: text("name").notNull(),
    code: text("code").notNull(),
    discountAmount: integer("discount_amount").notNull(),
  },
  (t) => [index("order_campaigns_order_idx").on(t.orderId)],
);
