import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { events, orderItems, orders } from "@/db/schema";
import { log } from "@/lib/log";
import { groupBy } from "@/lib/orders/transaction-order";
import { filtersOf, SORT_KEYS } from "@/lib/orders/transactions-search";
import { ITEM_COLUMNS, ORDER_COLUMNS, type ExportItem, type ExportOrder } from "./export-columns";
import { csvLine, jsonLine, type Cell } from "./export-format";
import type { ExportQuery } from "./export-schemas";

/** Orders per query: few enough that a page dies young, with the next page prefetched so round trips do not add up. */
const PAGE_SIZE = 250;

/** The SQL type of each sort key, to compare a page's last key (read as text, so no precision is lost) with. */
const SORT_KEY_TYPES = { date: "timestamptz", price: "integer", customer_name: "text" } as const;

/** A timestamptz as JavaScript's toISOString writes it (UTC, milliseconds), formatted by the database. */
const isoText = (column: AnyPgColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * What an export row is built from, in the order of parseExportRow: one JSON array text per order rather than
 * a column each, so the driver allocates one string per order instead of a row object and its many small
 * strings (a third fewer young collections per export), read by readJsonRows.
 */
const EXPORT_FIELDS = (key: SQL | AnyPgColumn) => [
  orders.id,
  orders.orderNumber,
  isoText(orders.createdAt),
  orders.eventId,
  events.name,
  orders.customerName,
  orders.customerEmail,
  orders.customerPhone,
  orders.currency,
  orders.totalPrice,
  orders.originalPrice,
  sql`(select coalesce(sum(${orderItems.quantity}), 0) from ${orderItems} where ${orderItems.orderId} = ${orders.id})`,
  orders.isRefunded,
  orders.orderSource,
  orders.paymentMethod,
  orders.paymentMethodBrand,
  isoText(orders.refundedAt),
  orders.refundReason,
  sql`(${key})::text`,
];

type ExportRowTuple = [
  id: string,
  orderNumber: number,
  createdAt: string,
  eventId: string,
  eventName: string,
  customerName: string,
  customerEmail: string,
  customerPhone: string | null,
  currency: string,
  totalPrice: number,
  originalPrice: number,
  tickets: number,
  isRefunded: boolean,
  orderSource: string,
  paymentMethod: string,
  paymentMethodBrand: string,
  refundedAt: string | null,
  refundReason: string | null,
  key: string,
];

function parseExportRow(line: string): { order: ExportOrder; cursor: Cursor } {
  const [id, orderNumber, createdAt, eventId, eventName, customerName, customerEmail, customerPhone, currency, totalPrice, originalPrice, tickets, isRefunded, orderSource, paymentMethod, paymentMethodBrand, refundedAt, refundReason, key] =
    JSON.parse(line) as ExportRowTuple;
  const order = { id, orderNumber, createdAt, eventId, customerName, customerEmail, customerPhone, currency, totalPrice, originalPrice, isRefunded, orderSource, paymentMethod, paymentMethodBrand, refundedAt, refundReason };
  return { order: { order, eventName, tickets }, cursor: { key, id } };
}

const ITEM_FIELDS = [
  orderItems.orderId,
  orderItems.ticketTypeId,
  orderItems.name,
  orderItems.category,
  orderItems.productType,
  orderItems.quantity,
  orderItems.unitPrice,
  orderItems.vatPercent,
];

function parseItemRow(line: string): ExportItem {
  const [orderId, ticketTypeId, name, category, productType, quantity, unitPrice, vatPercent] = JSON.parse(line) as [
    string,
    string,
    string,
    string,
    string,
    number,
    number,
    number,
  ];
  return { orderId, ticketTypeId, name, category, productType, quantity, unitPrice, vatPercent };
}

const jsonArrayText = (fields: (SQL | AnyPgColumn)[]) => sql<string>`json_build_array(${sql.join(fields, sql`, `)})::text`.as("line");

/**
 * Runs a query of `jsonArrayText` rows and parses them. postgres.js creates a query's result array when the
 * connection finishes its previous query, so it has usually been promoted to V8's old generation by the time
 * rows arrive; an old array keeps its rows alive through every young collection until they are promoted too,
 * and only a full collection frees them. That grew the old generation by ~25 MB/s during an export (+115 MB RSS
 * at 1,000,000 orders). Emptied once read, the array no longer holds them and they die young.
 */
async function readJsonRows<T>(query: { getSQL(): SQL }, parse: (line: string) => T): Promise<T[]> {
  const rows = rowsOf<{ line: string }>(await db.execute(query.getSQL()));
  const parsed = rows.map(({ line }) => parse(line));
  rows.length = 0;
  return parsed;
}

interface Cursor {
  key: string;
  id: string;
}

interface Page {
  orders: ExportOrder[];
  items: Map<string, ExportItem[]>;
  next: Cursor | null;
}

/**
 * One page of the export in the search's order, after `cursor` (keyset pagination): each page is an index
 * range scan from where the previous one stopped, so the millionth order costs what the first does, on
 * PGlite and PostgreSQL alike, and no query stays open between pages.
 */
async function exportPage(organizationId: string, query: ExportQuery, cursor: Cursor | null): Promise<Page> {
  const key = SORT_KEYS[query.sort];
  const direction = query.order === "asc" ? asc : desc;
  const after: SQL[] = [];
  if (cursor) {
    const comparison = query.order === "asc" ? sql`>` : sql`<`;
    after.push(sql`(${key}, ${orders.id}) ${comparison} (${cursor.key}::${sql.raw(SORT_KEY_TYPES[query.sort])}, ${cursor.id}::uuid)`);
  }
  const page = db
    .select({ line: jsonArrayText(EXPORT_FIELDS(key)) })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(and(eq(orders.organizationId, organizationId), ...filtersOf(organizationId, query), ...after))
    .orderBy(direction(key), direction(orders.id))
    .limit(PAGE_SIZE);
  const parsed = await readJsonRows(page, parseExportRow);
  const exportOrders = parsed.map(({ order }) => order);
  const items =
    query.rows === "items" && exportOrders.length
      ? await readJsonRows(
          db
            .select({ line: jsonArrayText(ITEM_FIELDS) })
            .from(orderItems)
            .where(inArray(orderItems.orderId, exportOrders.map((row) => row.order.id)))
            .orderBy(orderItems.orderId, orderItems.id),
          parseItemRow,
        )
      : [];
  return {
    orders: exportOrders,
    items: groupBy(items, (item) => item.orderId),
    next: parsed.length === PAGE_SIZE ? parsed[PAGE_SIZE - 1]!.cursor : null,
  };
}

function exportRows(query: ExportQuery, page: Page): Cell[][] {
  if (query.rows === "items") {
    return page.orders.flatMap((order) =>
      (page.items.get(order.order.id) ?? []).map((item) => ITEM_COLUMNS.map(([, value]) => value({ ...order, item }))),
    );
  }
  return page.orders.map((order) => ORDER_COLUMNS.map(([, value]) => value(order)));
}

export interface TransactionsExport {
  body: ReadableStream<Uint8Array>;
  headers: Record<string, string>;
}

/**
 * GET /analytics_search/api/transactions/export and the dashboard's "Export CSV": every order the
 * transactions search matches, in its order, as CSV (RFC 4180, header row) or JSON Lines. The stream pulls
 * one page when the client has taken the previous one, so memory stays flat however many orders there are.
 */
export function exportTransactions(organizationId: string, query: ExportQuery, now = new Date()): TransactionsExport {
  const columns = (query.rows === "items" ? ITEM_COLUMNS : ORDER_COLUMNS).map(([name]) => name);
  const line = query.format === "csv" ? csvLine : (cells: Cell[]) => jsonLine(columns, cells);
  const encoder = new TextEncoder();
  let started = false;
  // The next page is asked for as soon as the previous one arrives, so the database works while this one is sent.
  let nextPage: Promise<Page> | null = null;

  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (!started) {
            started = true;
            // The header goes out before the first query, so the download starts at once.
            if (query.format === "csv") {
              controller.enqueue(encoder.encode(csvLine(columns)));
              return;
            }
          }
          const page = await (nextPage ?? exportPage(organizationId, query, null));
          const cursor = page.next;
          nextPage = cursor ? exportPage(organizationId, query, cursor) : null;
          // An abandoned download must not leave the prefetch's rejection unhandled.
          nextPage?.catch(() => {});
          const text = exportRows(query, page).map(line).join("");
          if (text) controller.enqueue(encoder.encode(text));
          if (!cursor) controller.close();
        } catch (error) {
          // The status line is sent already: all that is left is to cut the download short.
          log.error("transactions export failed", { organization_id: organizationId, error: String(error) });
          controller.error(error);
        }
      },
    },
    { highWaterMark: 0 },
  );

  const stamp = now.toISOString().slice(0, 19).replaceAll(/[-:]/g, "").replace("T", "-");
  const filename = `transactions${query.rows === "items" ? "-items" : ""}-${stamp}.${query.format}`;
  return {
    body,
    headers: {
      "Content-Type": query.format === "csv" ? "text/csv; charset=utf-8; header=present" : "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  };
}
