/**
 * Server time of the dashboard's pages, signed in: each page's full HTML response, sequential requests after a
 * warm-up, p50 against the target. The session comes from the login form's own endpoint.
 */
import { performance } from "node:perf_hooks";
import { sessionCookie } from "../../tests/support/sign-in";
import { latencySummary, type LatencySummary } from "./stats";

export const DASHBOARD_TARGET_P50_MS = 100;

export interface DashboardPageResult extends LatencySummary {
  page: string;
  samples: number;
  met: boolean;
}

/** The pages measured (the order by its bare uuid, as the dashboard links it): every list page, the Overview for a month and a year, and an order search by e-mail fragment. */
export function dashboardPages(options: { emailFragment: string; orderId: string; eventId: string }): string[] {
  return [
    "/overview?days=30",
    "/overview?days=365",
    "/orders",
    `/orders?q=${encodeURIComponent(options.emailFragment)}`,
    `/orders/${options.orderId}`,
    "/events",
    `/events/${options.eventId}`,
    "/venues",
    "/deliveries",
    "/integrations",
    "/api-keys",
    "/members",
  ];
}

export async function measureDashboardPages(
  baseUrl: string,
  login: { email: string; password: string },
  pages: string[],
  samples: number,
  log: (message: string) => void,
): Promise<DashboardPageResult[]> {
  const cookie = await sessionCookie(baseUrl, login.email, login.password);
  const get = async (page: string) => {
    const response = await fetch(baseUrl + page, { headers: { Cookie: cookie }, redirect: "manual" });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`dashboard ${page} → ${response.status} ${body.slice(0, 200)}`);
  };
  const results: DashboardPageResult[] = [];
  for (const page of pages) {
    for (let i = 0; i < 3; i++) await get(page);
    const latencies: number[] = [];
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      await get(page);
      latencies.push(performance.now() - started);
    }
    const summary = latencySummary(latencies);
    results.push({ page, samples, ...summary, met: summary.p50_ms <= DASHBOARD_TARGET_P50_MS });
    log(`dashboard ${page}: p50 ${summary.p50_ms} ms, p95 ${summary.p95_ms} ms`);
  }
  return results;
}

export function dashboardLines(results: DashboardPageResult[]): string[] {
  return [
    `Dashboard pages, signed in (owner): full HTML response time, sequential, p50 target ${DASHBOARD_TARGET_P50_MS} ms.`,
    "",
    "| Page | samples | p50 (ms) | p95 (ms) | max (ms) | p50 ≤ target |",
    "|---|---:|---:|---:|---:|---|",
    ...results.map((r) => `| ${r.page} | ${r.samples} | ${r.p50_ms} | ${r.p95_ms} | ${r.max_ms} | ${r.met ? "yes" : "**no**"} |`),
  ];
}
