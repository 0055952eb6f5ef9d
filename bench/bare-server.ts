/**
 * The benchmark's reference: a bare Node `http` server in one process doing the work the app does for
 * GET /v1/orders/:id, GET /v1/orders, the transactions first page, GET /v1/events, GET /v1/venues and
 * GET /v1/events/:id/tickets (the app's one statement for the API key lookup and its rate_limit_hit, the same
 * SQL through postgres.js, JSON out), with no framework, so `npm run bench` can measure what the app adds. GET /api/health is `select 1`. Not a second implementation of the API: no validation
 * beyond what the benchmark's requests need, sort by date only.
 *
 *   DATABASE_URL=postgres://… PORT=4000 tsx bench/bare-server.ts
 */
import { createHash } from "node:crypto";
import http from "node:http";
import postgres from "postgres";
import { fromPublicId, toPublicId } from "@/lib/ids";

const sqlc = postgres(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres", { max: 10, onnotice: () => {} });
const port = Number(process.env.PORT ?? 4000);

type Row = Record<string, unknown>;
type Reply = [status: number, body: unknown, headers?: Record<string, string>];

async function itemsOf(ids: string[]): Promise<Map<string, Row[]>> {
  const items = ids.length ? await sqlc`select * from order_items where order_id in ${sqlc(ids)} order by order_id, id` : [];
  const byOrder = new Map<string, Row[]>();
  for (const item of items) byOrder.set(item.order_id as string, [...(byOrder.get(item.order_id as string) ?? []), item]);
  return byOrder;
}

function orderJson(order: Row, items: Row[]) {
  return { ...order, id: toPublicId("order", order.id as string), items: items.map((item) => ({ ...item, order_id: undefined })) };
}

async function campaignsOf(ids: string[]): Promise<Row[]> {
  return ids.length ? await sqlc`select * from order_campaigns where order_id in ${sqlc(ids)} order by order_id, id` : [];
}

/** A first page sorted by date: /v1/orders, or the transactions search (which also reads campaigns). */
async function ordersPage(organizationId: string, url: URL, transactions: boolean): Promise<Reply> {
  const size = Math.min(Number(url.searchParams.get("size") ?? url.searchParams.get("limit") ?? 25), 1000);
  const from = Number(url.searchParams.get("from") ?? 0);
  const [rows, [count]] = await Promise.all([
    sqlc`select orders.* from (
           select id as page_id from orders where organization_id = ${organizationId}
           order by created_at desc, id desc limit ${size} offset ${from}
         ) page join orders on orders.id = page.page_id order by created_at desc, id desc`,
    sqlc`select coalesce(sum(order_count), 0) as total from organization_order_counts where organization_id = ${organizationId}`,
  ]);
  const ids = rows.map((row) => row.id as string);
  const [items, campaigns] = await Promise.all([itemsOf(ids), transactions ? campaignsOf(ids) : []]);
  const data = rows.map((row) => ({
    ...orderJson(row, items.get(row.id as string) ?? []),
    ...(transactions ? { campaigns: campaigns.filter((c) => c.order_id === row.id) } : {}),
  }));
  return [200, { data, total_count: Number(count!.total) }];
}

async function oneOrder(organizationId: string, publicId: string): Promise<Reply> {
  const id = fromPublicId("order", publicId);
  const [row] = id ? await sqlc`select * from orders where organization_id = ${organizationId} and id = ${id} limit 1` : [];
  if (!row) return [404, { error: "Not found", code: "not_found" }];
  const items = await itemsOf([row.id as string]);
  return [200, orderJson(row, items.get(row.id as string) ?? [])];
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** GET /v1/events, first page, newest first, with each event's venue name and the exact count. */
async function eventsPage(organizationId: string): Promise<Reply> {
  const [rows, [count]] = await Promise.all([
    sqlc`select events.*, venues.name as venue_name from events join venues on venues.id = events.venue_id
         where events.organization_id = ${organizationId} and events.deleted_at is null
         order by events.created_at desc, events.id desc limit 25`,
    sqlc`select count(*)::int as total from events where organization_id = ${organizationId} and deleted_at is null`,
  ]);
  const data = rows.map((row) => ({
    ...row,
    id: toPublicId("event", row.id as string),
    starts_at: iso(row.starts_at),
    venue: { id: toPublicId("venue", row.venue_id as string), name: row.venue_name },
  }));
  return [200, { data, meta: { total: count!.total } }];
}

async function venuesList(organizationId: string): Promise<Reply> {
  const rows = await sqlc`select * from venues where organization_id = ${organizationId} and deleted_at is null
                          order by created_at desc, id desc`;
  return [200, { data: rows.map((row) => ({ ...row, id: toPublicId("venue", row.id as string) })) }];
}

async function ticketTypesOf(organizationId: string, publicEventId: string): Promise<Reply> {
  const eventId = fromPublicId("event", publicEventId);
  const [event] = eventId
    ? await sqlc`select id, status from events where organization_id = ${organizationId} and id = ${eventId} and deleted_at is null`
    : [];
  if (!event) return [404, { error: "Not found", code: "not_found" }];
  // quantity_sold is derived from the stock buckets (db/sql/ticket-type-quantity-sold.sql), as the app reads it.
  const rows = await sqlc`select t.*, t.quantity_sold from ticket_types t where organization_id = ${organizationId} and event_id = ${event.id}
                          order by created_at, id`;
  return [200, { data: rows.map((row) => ({ ...row, id: toPublicId("ticketType", row.id as string), event_status: event.status })) }];
}

/** The API route a path names, or null. */
function routeOf(organizationId: string, url: URL): Promise<Reply> | null {
  const { pathname } = url;
  if (pathname === "/v1/orders" || pathname === "/analytics_search/api/transactions") {
    return ordersPage(organizationId, url, pathname !== "/v1/orders");
  }
  if (pathname === "/v1/events") return eventsPage(organizationId);
  if (pathname === "/v1/venues") return venuesList(organizationId);
  const single = /^\/v1\/orders\/([^/]+)$/.exec(pathname);
  if (single) return oneOrder(organizationId, single[1]!);
  const tickets = /^\/v1\/events\/([^/]+)\/tickets$/.exec(pathname);
  return tickets ? ticketTypesOf(organizationId, tickets[1]!) : null;
}

async function handle(req: http.IncomingMessage): Promise<Reply> {
  const url = new URL(req.url ?? "/", "http://bare");
  if (url.pathname === "/api/health") {
    await sqlc`select 1`;
    return [200, { status: "ok" }];
  }
  const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
  // The app's statement (authenticateApiKeyAndHit): the key lookup and its rate_limit_hit in one round trip.
  const [key] = await sqlc`select k.id, k.organization_id, k.scopes, k.rate_limit_per_minute, hit.allowed, hit.remaining, hit.reset_at
                             from api_keys k cross join lateral rate_limit_hit(k.id, k.rate_limit_per_minute) hit
                            where k.key_hash = ${createHash("sha256").update(token).digest("hex")} and k.revoked_at is null`;
  if (!key) return [401, { error: "Invalid or missing API key", code: "unauthorized" }];
  const headers = { "X-RateLimit-Remaining": String(key.remaining), "X-RateLimit-Reset": String(key.reset_at) };
  if (!key.allowed) return [429, { error: "Rate limit exceeded", code: "rate_limited" }, headers];
  const [status, body] = (await routeOf(key.organization_id as string, url)) ?? [404, { error: "Not found", code: "not_found" }];
  return [status, body, headers];
}

http
  .createServer((req, res) => {
    handle(req).then(
      ([status, body, headers]) => {
        res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(body));
      },
      (error: unknown) => {
        console.error(error);
        res.writeHead(500, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "Internal error", code: "internal" }));
      },
    );
  })
  .listen(port, "127.0.0.1", () => console.log(`bare server on http://127.0.0.1:${port}`));
