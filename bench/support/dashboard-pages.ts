/**
 * Server time of the dashboard's pages, signed in: each page's full HTML response, sequential requests after a
 * warm-up, p50 against the target, and the server's CPU per request beside it. The session comes from the login
 * form's own endpoint.
 */
import { performance } from "node:perf_hooks";
import type postgres from "postgres";
import { toPublicId } from "@/lib/ids";
import { sessionCookie } from "../../tests/support/sign-in";
import { request } from "./http-client";
import { cpuMs } from "./process-cpu";
import { latencySummary, round, type LatencySummary } from "./stats";

export const DASHBOARD_TARGET_P50_MS = 100;
/** The /orders page size the dashboard opens with (lib/dashboard/orders.ts DEFAULT_PAGE_SIZE). */
const ORDERS_PAGE_SIZE = 25;

export interface DashboardPageResult extends LatencySummary {
  page: string;
  samples: number;
  /** The server process's CPU (utime + stime) per measured request: what of the time is Node's own work. */
  cpu_ms_per_request: number;
  met: boolean;
}

/** What the measured pages name: one order of the organization and the rows around it. */
export interface DashboardSamples {
  orderId: string;
  orderNumber: number;
  /** Four characters from inside the e-mail's local part: a fragment, not a prefix. */
  emailFragment: string;
  eventId: string;
  ticketTypeId: string;
  venueId: string;
  channel: string;
  paymentMethod: string;
  orderCount: number;
  /** A delivery and a request-log trace of the organization, when the run made any (detail pages). */
  deliveryId?: string;
  traceId?: string;
}

/** The samples for the organization's pages, read from the database (`orderId` one of its orders). */
export async function dashboardSamples(sqlc: postgres.Sql, organizationId: string, orderId: string): Promise<DashboardSamples> {
  type OrderRow = { order_number: number; customer_email: string; event_id: string; venue_id: string; order_source: string; payment_method: string };
  const [order] = await sqlc<OrderRow[]>`
    select o.order_number, o.customer_email, o.event_id, e.venue_id, o.order_source, o.payment_method
    from orders o join events e on e.id = o.event_id where o.id = ${orderId}`;
  const [ticketType] = await sqlc<{ id: string }[]>`select id from ticket_types where event_id = ${order!.event_id} limit 1`;
  const [count] = await sqlc<{ n: string }[]>`select coalesce(sum(order_count), 0) as n from order_daily_counts where organization_id = ${organizationId}`;
  const [delivery] = await sqlc<{ id: string }[]>`select id from webhook_deliveries where organization_id = ${organizationId} limit 1`;
  const [logged] = await sqlc<{ trace_id: string }[]>`select trace_id from request_log where organization_id = ${organizationId} limit 1`;
  return {
    orderId,
    orderNumber: order!.order_number,
    emailFragment: order!.customer_email.slice(1, 5),
    eventId: order!.event_id,
    ticketTypeId: ticketType!.id,
    venueId: order!.venue_id,
    channel: order!.order_source,
    paymentMethod: order!.payment_method,
    orderCount: Number(count!.n),
    deliveryId: delivery?.id,
    traceId: logged?.trace_id,
  };
}

/**
 * Every page of the dashboard (the owner sees them all), with the links the dashboard itself makes: the
 * Overview for each period, /orders plain, searched (e-mail fragment, exact order number), with each filter, and
 * on its last page (the deepest page number) in each sort; every list page and every detail page.
 */
export function dashboardPages(s: DashboardSamples): string[] {
  const event = toPublicId("event", s.eventId);
  const lastPage = Math.max(0, Math.ceil(s.orderCount / ORDERS_PAGE_SIZE) - 1) * ORDERS_PAGE_SIZE;
  const middlePage = Math.floor(lastPage / 2 / ORDERS_PAGE_SIZE) * ORDERS_PAGE_SIZE;
  return [
    "/overview",
    "/overview?days=7",
    "/overview?days=90",
    "/overview?days=365",
    "/overview?days=730",
    "/orders",
    `/orders?q=${encodeURIComponent(s.emailFragment)}`,
    `/orders?q=${s.orderNumber}`,
    `/orders?event_id=${event}`,
    "/orders?is_refunded=true",
    "/orders?is_refunded=false",
    `/orders?order_source=${encodeURIComponent(s.channel)}`,
    `/orders?payment_method=${encodeURIComponent(s.paymentMethod)}`,
    `/orders?event_id=${event}&is_refunded=false&order_source=${encodeURIComponent(s.channel)}`,
    `/orders?from=${middlePage}`,
    `/orders?from=${lastPage}`,
    `/orders?sort=price&from=${lastPage}`,
    `/orders?sort=customer_name&order=asc&from=${lastPage}`,
    `/orders/${s.orderId}`,
    "/events",
    `/events/${event}`,
    `/events/${event}/ticket-types/${toPublicId("ticketType", s.ticketTypeId)}`,
    "/venues",
    `/venues/${toPublicId("venue", s.venueId)}`,
    "/integrations",
    "/deliveries",
    ...(s.deliveryId ? [`/deliveries/${toPublicId("delivery", s.deliveryId)}`] : []),
    "/logs",
    ...(s.traceId ? [`/logs/${s.traceId}`] : []),
    "/security",
    "/api-keys",
    "/members",
    "/account",
  ];
}

export async function measureDashboardPages(
  { baseUrl, pid }: { baseUrl: string; pid: number },
  login: { email: string; password: string },
  pages: string[],
  samples: number,
  log: (message: string) => void,
): Promise<DashboardPageResult[]> {
  const cookie = await sessionCookie(baseUrl, login.email, login.password);
  const get = async (page: string) => {
    // node:http follows no redirect: a page that sends the session to /login fails here.
    const response = await request(baseUrl + page, { headers: { Cookie: cookie } });
    if (response.status !== 200) throw new Error(`dashboard ${page} → ${response.status} ${response.body.toString("utf8", 0, 200)}`);
  };
  const results: DashboardPageResult[] = [];
  for (const page of pages) {
    for (let i = 0; i < 3; i++) await get(page);
    const latencies: number[] = [];
    const cpuBefore = cpuMs(pid);
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      await get(page);
      latencies.push(performance.now() - started);
    }
    const cpu = round((cpuMs(pid) - cpuBefore) / samples, 1);
    const summary = latencySummary(latencies);
    const met = summary.p50_ms <= DASHBOARD_TARGET_P50_MS;
    results.push({ page, samples, ...summary, cpu_ms_per_request: cpu, met });
    log(`dashboard ${page}: p50 ${summary.p50_ms} ms, p95 ${summary.p95_ms} ms, Node CPU ${cpu} ms/request, p50 ≤ ${DASHBOARD_TARGET_P50_MS} ms: ${met ? "yes" : "NO"}`);
  }
  return results;
}

export function dashboardLines(results: DashboardPageResult[]): string[] {
  return [
    `Dashboard pages, signed in (owner): full HTML response time, sequential, p50 target ${DASHBOARD_TARGET_P50_MS} ms.`,
    "",
    "| Page | samples | p50 (ms) | p95 (ms) | max (ms) | Node CPU per request (ms) | p50 ≤ target |",
    "|---|---:|---:|---:|---:|---:|---|",
    ...results.map(
      (r) => `| ${r.page} | ${r.samples} | ${r.p50_ms} | ${r.p95_ms} | ${r.max_ms} | ${r.cpu_ms_per_request} | ${r.met ? "yes" : "**no**"} |`,
    ),
  ];
}
