import { and, eq, sql, type SQL } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";
import { events, orderItems, orders } from "@/db/schema";
import { log } from "@/lib/log";
import { filtersOf, SORT_KEYS } from "@/lib/orders/transactions-filters";
import { ITEM_COLUMNS, ORDER_COLUMNS } from "./export-columns";
import { csvHeader, csvLineSql, jsonLineSql } from "./export-lines";
import type { ExportQuery } from "./export-schemas";

/** Orders per query: few enough that a page dies young, with the next page prefetched so round trips do not add up. */
const PAGE_SIZE = 250;

/** The SQL type of each sort key, to compare a page's last key (read as text, so no precision is lost) with. */
const SORT_KEY_TYPES = { date: "timestamptz", price: "integer", customer_name: "text" } as const;

interface Cursor {
  key: string;
  id: string;
}

interface Page {
  /** The page's lines, written by the database. */
  text: string;
  next: Cursor | null;
}

/**
 * One page of the export in the search's order, after `cursor` (keyset pagination): each page is an index
 * range scan from where the previous one stopped, so the millionth order costs what the first does, on
 * PGlite and PostgreSQL alike, and no query stays open between pages. The database writes each line, so a
 * row is one string, and the last order's key comes with the last row when the page is full.
 */
async function exportPage(organizationId: string, query: ExportQuery, line: SQL, cursor: Cursor | null): Promise<Page> {
  const key = SORT_KEYS[query.sort];
  const direction = sql.raw(query.order === "asc" ? "asc" : "desc");
  const after: SQL[] = [];
  if (cursor) {
    const comparison = query.order === "asc" ? sql`>` : sql`<`;
    after.push(sql`(${key}, ${orders.id}) ${comparison} (${cursor.key}::${sql.raw(SORT_KEY_TYPES[query.sort])}, ${cursor.id}::uuid)`);
  }
  const where = and(eq(orders.organizationId, organizationId), ...filtersOf(organizationId, query), ...after);
  // The page's ids in order, numbered outside the LIMIT so that the sort stays a top-N one (or an index scan).
  const ids = sql`select ${orders.id} as id, ${key} as sort_value, (${key})::text as sort_key from ${orders} where ${where}
    order by ${key} ${direction}, ${orders.id} ${direction} limit ${PAGE_SIZE}`;
  const page = sql`select ids.*, row_number() over (order by ids.sort_value ${direction}, ids.id ${direction}) as n from (${ids}) ids`;
  const items = query.rows === "items";
  // An order without items has no line in an items export, yet still counts towards a full page.
  const result = await db.execute(sql`
    select ${items ? sql`case when ${orderItems.id} is not null then ${line} end` : line} as line,
      case when page.n = ${PAGE_SIZE} then page.sort_key end as sort_key,
      case when page.n = ${PAGE_SIZE} then page.id::text end as id
    from (${page}) page
    join ${orders} on ${orders.id} = page.id
    join ${events} on ${events.id} = ${orders.eventId}
    ${items ? sql`left join ${orderItems} on ${orderItems.orderId} = ${orders.id}` : sql``}
    order by page.n${items ? sql`, ${orderItems.id}` : sql``}`);
  const rows = rowsOf<{ line: string | null; sort_key: string | null; id: string | null }>(result);
  const last = rows.at(-1);
  const text = rows.map((row) => row.line ?? "").join("");
  // postgres.js creates the result array before the rows arrive, so it is often old by then and would keep its
  // young rows alive until a full collection; emptied once read, they die young.
  rows.length = 0;
  return { text, next: last?.sort_key != null && last.id ? { key: last.sort_key, id: last.id } : null };
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
  const columns = query.rows === "items" ? ITEM_COLUMNS : ORDER_COLUMNS;
  const line = query.format === "csv" ? csvLineSql(columns) : jsonLineSql(columns);
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
              controller.enqueue(encoder.encode(csvHeader(columns)));
              return;
            }
          }
          const page = await (nextPage ?? exportPage(organizationId, query, line, null));
          const cursor = page.next;
          nextPage = cursor ? exportPage(organizationId, query, line, cursor) : null;
          // An abandoned download must not leave the prefetch's rejection unhandled.
          nextPage?.catch(() => {});
          if (page.text) controller.enqueue(encoder.encode(page.text));
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
