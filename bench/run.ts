/**
 * `npm run bench`: API latency and throughput at 1,000,000 orders, beside the raw SQL of the same queries.
 *
 * PostgreSQL only. Creates a database `bench_<timestamp>` on the server of DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres) as a copy (`CREATE DATABASE … TEMPLATE`, seconds) of the seeded
 * template `bench_tpl_<hash>`: migrated, one organization with 1,000,000 orders and another with 100,000. The
 * first script that needs the template (this one or bench/analytics.ts) seeds it, minutes at 1M orders; later
 * scripts and later runs copy it. Its name hashes db/migrations, lib/demo/bulk-seed.ts, lib/demo/customers.ts
 * and the two sizes, so a schema or seed change seeds a new one and templates of other hashes are dropped
 * (support/database.ts; `DROP DATABASE bench_tpl_…` forces a fresh seed). The copy gets the measured
 * organization's API key and dashboard user. Then this starts the production build (`next start`, built first
 * when missing) on 127.0.0.1 and measures, with bounded request loops:
 *   - GET /analytics_search/api/transactions: each sort × with/without a date filter × first page and from=100000
 *   - GET /v1/orders and GET /v1/orders/:id
 * Each case also runs the SQL statements the endpoint issues, through postgres.js, in the same run. Then the app
 * beside the bare Node reference server (bench/bare-server.ts) for every API read endpoint, interleaved rounds
 * (req/s at concurrency 16, CPU per request, p50 at concurrency 1), with the framework's floor (GET /api/health);
 * see support/app-vs-bare.ts. Then the dashboard's pages, signed in (support/dashboard-pages.ts). Then `q`, filtered
 * first pages, deep pages, cursor walks and the rate limiter (support/search-cases.ts; under "search").
 * Writes bench/results.json (under "api"; other benchmarks' keys are kept) and bench/results.md. The copy is
 * dropped at the end, the template kept. `--sections` picks parts (e.g. `--sections app-vs-bare,dashboard --orders 100000` while
 * developing; the issue's figures are at 1,000,000 orders).
 *
 * `npm run bench` runs this first, then the other benchmarks (webhook-delivery, load, analytics, request-log,
 * on-sale), and last bench/summary.ts, which writes and prints the table of which targets hold.
 *
 *   npm run bench [-- --orders 1000000 --other-orders 100000 --samples 100 --warmup 10 --bare-requests 2000
 *                    --dashboard-samples 20 --search-samples 20 --rate-limit-seconds 10
 *                    --sections cases,baselines,app-vs-bare,dashboard,search]
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import postgres from "postgres";
import type { DatabaseHandle } from "@/db/client";
import { benchDatabase, type SeededOrganizations } from "./support/database";
import { benchLogger } from "./support/log";
import { saveMarkdownSection, saveResults } from "./support/results";
import { CPU_MARGIN_MS, compare, comparisonLines, overallFloor, roundSize, startBareServer, warmUpFloor, type Target } from "./support/app-vs-bare";
import { dashboardLines, dashboardPages, dashboardSamples, measureDashboardPages } from "./support/dashboard-pages";
import { apiEndpoints, endpointSamples } from "./support/endpoints";
import { keepAliveGet } from "./support/http-client";
import { measureSearch, searchLines } from "./support/search-cases";
import { cleanUpOnInterrupt, ensureBuild, startNextServer, type BenchServer } from "./support/server";
import { percentile, round } from "./support/stats";

process.env.LOG_LEVEL ??= "warn";
process.env.NEXT_TELEMETRY_DISABLED = "1";

const { values: args } = parseArgs({
  options: {
    orders: { type: "string", default: "1000000" },
    "other-orders": { type: "string", default: "100000" },
    samples: { type: "string", default: "100" },
    warmup: { type: "string", default: "10" },
    concurrency: { type: "string", default: "4" },
    "throughput-requests": { type: "string", default: "100" },
    // Rounds of 400 lasted under half a second at the small endpoints' rates, and an endpoint's CPU per request moved by
    // up to 2x from one round to the next (bench/history.md, round-2026-11-29v).
    "bare-requests": { type: "string", default: "2000" },
    "dashboard-samples": { type: "string", default: "20" },
    "search-samples": { type: "string", default: "20" },
    "rate-limit-seconds": { type: "string", default: "10" },
    sections: { type: "string", default: "cases,baselines,app-vs-bare,dashboard,search" },
  },
});
const SECTIONS = new Set(args.sections.split(","));
/** The sections written under "api" (the search section has a key of its own). */
const API_SECTIONS = ["cases", "baselines", "app-vs-bare", "dashboard"];
const DASHBOARD_SAMPLES = Number(args["dashboard-samples"]);
const DASHBOARD_LOGIN = { email: "bench-owner@example.com", password: "bench-owner-password" };
const ORDERS = Number(args.orders);
const OTHER_ORDERS = Number(args["other-orders"]);
const SAMPLES = Number(args.samples);
const WARMUP = Number(args.warmup);
const CONCURRENCY = Number(args.concurrency);
const THROUGHPUT_REQUESTS = Number(args["throughput-requests"]);
const BARE_REQUESTS = Number(args["bare-requests"]);
const WARMUP_BUDGET_MS = 5_000;
const SAMPLE_BUDGET_MS = 15_000;
const MIN_SAMPLES = 20;
const THROUGHPUT_BUDGET_MS = 10_000;
const DEEP_OFFSET = 100_000;
const PAGE_SIZE = 100;
const TARGET_FIRST_PAGE_MS = 30;

const log = benchLogger("bench");

// ---------- database ----------

const database = benchDatabase("bench");
const benchUrl = database.url;

// App modules read the environment when first imported: point them at the bench database first.
process.env.DATABASE_URL = benchUrl;
const { createApiKey } = await import("@/lib/auth/api-keys");
const { toPublicId } = await import("@/lib/ids");
const { createUser } = await import("@/lib/auth/users");

let server: BenchServer | undefined;
let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
let raw: postgres.Sql | undefined;
let handle: DatabaseHandle | undefined;

let cleaning: Promise<void> | undefined;
const cleanUp = () => (cleaning ??= stopAndDrop());

async function stopAndDrop() {
  await server?.stop();
  bare?.process.kill("SIGTERM");
  await raw?.end({ timeout: 5 });
  await database.drop();
}

// ---------- measuring ----------

interface Stats {
  samples: number;
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
  rps: number;
}

/** Runs `run` until `count` calls are done or `budgetMs` has passed (but at least `minimum` calls); returns the calls made. */
async function bounded(count: number, budgetMs: number, minimum: number, run: (i: number) => Promise<unknown>): Promise<number> {
  const deadline = performance.now() + budgetMs;
  let i = 0;
  while (i < count && (i < minimum || performance.now() < deadline)) await run(i++);
  return i;
}

/**
 * Sequential latency samples after a warm-up, then throughput with CONCURRENCY callers. Each phase is bounded
 * by a count and a time budget, so slow cases (deep offsets over 1M rows) take fewer samples, not minutes.
 */
async function measure(run: (i: number) => Promise<unknown>): Promise<Stats> {
  await bounded(WARMUP, WARMUP_BUDGET_MS, 2, run);
  const latencies: number[] = [];
  await bounded(SAMPLES, SAMPLE_BUDGET_MS, MIN_SAMPLES, async (i) => {
    const start = performance.now();
    await run(i);
    latencies.push(performance.now() - start);
  });
  let next = 0;
  const deadline = performance.now() + THROUGHPUT_BUDGET_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < THROUGHPUT_REQUESTS && performance.now() < deadline) await run(next++);
    }),
  );
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    samples: latencies.length,
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    mean_ms: round(latencies.reduce((sum, v) => sum + v, 0) / latencies.length),
    rps: round((next / elapsed) * 1000),
  };
}

// ---------- cases ----------

type Sort = "date" | "price" | "customer_name";
const SORT_SQL: Record<Sort, string> = { date: "created_at", price: "total_price", customer_name: "lower(customer_name)" };

interface Case {
  name: string;
  endpoint: string;
  group: "transactions" | "orders";
  firstPageTarget: boolean;
  http: (i: number) => string;
  sql: (i: number) => Promise<unknown>;
}

interface CaseResult {
  name: string;
  endpoint: string;
  api: Stats;
  raw_sql: Stats;
  ratio_p50: number;
  targets: { first_page_under_30ms?: boolean };
  met: boolean;
}

interface Seeded {
  orgId: string;
  key: string;
  keyId: string;
  seed: SeededOrganizations;
}

/**
 * The bench database: a copy of the seeded template (the measured organization and another one, see
 * support/database.ts), with the measured organization's API key and dashboard user added.
 */
async function seedBenchDatabase(): Promise<Seeded> {
  log(`creating database ${database.name} from the seeded template (${ORDERS} + ${OTHER_ORDERS} orders; seeded first when missing)`);
  const opened = await database.openSeeded({ orders: ORDERS, otherOrders: OTHER_ORDERS });
  handle = opened.handle;
  const seed = opened.seeded;
  log(
    seed.templateReused
      ? `copied the template in ${seed.cloneSeconds} s (seeded ${seed.seededAt} in ${seed.seedSeconds} s)`
      : `seeded the template in ${seed.seedSeconds} s, copied it in ${seed.cloneSeconds} s`,
  );
  const { key, record: keyRecord } = await createApiKey({
    organizationId: seed.mainOrganizationId,
    name: "bench",
    scopes: ["orders:read", "events:read", "venues:read"],
    rateLimitPerMinute: 1_000_000,
  });
  await createUser({ organizationId: seed.mainOrganizationId, ...DASHBOARD_LOGIN, role: "owner" });
  log("vacuum analyze");
  await handle.exec("vacuum analyze orders, order_items, order_campaigns, organizations");
  return { orgId: seed.mainOrganizationId, key, keyId: keyRecord.id, seed };
}

interface Samples {
  dateFrom: string;
  dateTo: string;
  /** Ids of the measured organization's orders, for the single-order reads. */
  orderIds: string[];
}

/** A date window in the middle of the seeded year (about a quarter of the orders), and 500 random order ids. */
async function pickSamples(sqlc: postgres.Sql, orgId: string): Promise<Samples> {
  const [bounds] = await sqlc<{ lo: Date; hi: Date }[]>`
    select min(created_at) as lo, max(created_at) as hi from orders where organization_id = ${orgId}`;
  const span = bounds!.hi.getTime() - bounds!.lo.getTime();
  const dateFrom = new Date(bounds!.lo.getTime() + span * 0.4).toISOString();
  const dateTo = new Date(bounds!.lo.getTime() + span * 0.65).toISOString();
  const orderIds = (
    await sqlc<{ id: string }[]>`select id from orders where organization_id = ${orgId} order by random() limit 500`
  ).map((row) => row.id);
  return { dateFrom, dateTo, orderIds };
}

/** A GET against the app with the bench key that fails unless it answers 200, reading the whole body. */
function apiGetter(baseUrl: string, key: string) {
  const headers = { Authorization: `Bearer ${key}` };
  return (url: string) => keepAliveGet(baseUrl + url, headers);
}

/** The statements the endpoints issue for the rows of a page: items (and campaigns), with an IN list as drizzle writes it. */
async function details(sqlc: postgres.Sql, ids: string[], campaigns: boolean) {
  await Promise.all([
    sqlc`select * from order_items where order_id in ${sqlc(ids)} order by order_id, id`,
    campaigns ? sqlc`select * from order_campaigns where order_id in ${sqlc(ids)} order by order_id, id` : null,
  ]);
}

/** The transactions search for one sort, with or without the date window, at one offset. */
function transactionsCase(sqlc: postgres.Sql, orgId: string, samples: Samples, sort: Sort, dated: boolean, from: number): Case {
  const { dateFrom, dateTo } = samples;
  const query = new URLSearchParams({ sort, size: String(PAGE_SIZE), from: String(from) });
  if (dated) {
    query.set("date_from", dateFrom);
    query.set("date_to", dateTo);
  }
  const dateSql = dated ? `and created_at >= $2::timestamptz and created_at <= $3::timestamptz` : "";
  const params = dated ? [orgId, dateFrom, dateTo] : [orgId];
  // The deferred join of searchTransactions(): page ids from the sort index, then those rows.
  const ordering = `${SORT_SQL[sort]} desc, id desc`;
  const pageSql = `select orders.* from (
            select id as page_id from orders where organization_id = $1 ${dateSql}
            order by ${ordering} limit ${PAGE_SIZE} offset ${from}
          ) page join orders on orders.id = page.page_id order by ${ordering}`;
  // The totals of countTransactions(): the per-organization counter without filters, whole days plus
  // partial days with dates only.
  const countSql = dated
    ? `select count_orders_matching(id, $2::timestamptz, $3::timestamptz, true, null, null, null, null) as total from organizations where id = $1`
    : `select coalesce(sum(order_count), 0) as total from organization_order_counts where organization_id = $1`;
  return {
    name: `transactions sort=${sort}${dated ? " +dates" : ""} ${from === 0 ? "first page" : `from=${from}`}`,
    endpoint: `/analytics_search/api/transactions?${query}`,
    group: "transactions",
    firstPageTarget: from === 0,
    http: () => `/analytics_search/api/transactions?${query}`,
    sql: async () => {
      const [rows] = await Promise.all([sqlc.unsafe(pageSql, params), sqlc.unsafe(countSql, params)]);
      await details(
        sqlc,
        rows.map((row) => row.id as string),
        true,
      );
    },
  };
}

/** Every transactions search case, then the two /v1 order reads. */
function benchCases(sqlc: postgres.Sql, orgId: string, samples: Samples): Case[] {
  const cases: Case[] = [];
  for (const sort of ["date", "price", "customer_name"] as const) {
    for (const dated of [false, true]) {
      for (const from of [0, DEEP_OFFSET]) cases.push(transactionsCase(sqlc, orgId, samples, sort, dated, from));
    }
  }
  const { orderIds } = samples;
  cases.push({
    name: "GET /v1/orders",
    endpoint: "/v1/orders",
    group: "orders",
    firstPageTarget: false,
    http: () => "/v1/orders",
    sql: async () => {
      const [rows] = await Promise.all([
        sqlc`select * from orders where organization_id = ${orgId} order by created_at desc, id desc limit 25 offset 0`,
        sqlc`select coalesce(sum(order_count), 0) as total from organization_order_counts where organization_id = ${orgId}`,
      ]);
      await details(
        sqlc,
        rows.map((row) => row.id as string),
        false,
      );
    },
  });
  cases.push({
    name: "GET /v1/orders/:id",
    endpoint: "/v1/orders/:id",
    group: "orders",
    firstPageTarget: false,
    http: (i) => `/v1/orders/${toPublicId("order", orderIds[i % orderIds.length]!)}`,
    sql: async (i) => {
      const id = orderIds[i % orderIds.length]!;
      const [row] = await sqlc`select * from orders where organization_id = ${orgId} and id = ${id} limit 1`;
      await details(sqlc, [row!.id as string], false);
    },
  });
  return cases;
}

/** Each case through the API and as raw SQL, with its targets. */
async function measureCases(cases: Case[], get: (url: string) => Promise<void>): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    const api = await measure((i) => get(c.http(i)));
    const rawSql = await measure(c.sql);
    const ratio = round(api.p50_ms / rawSql.p50_ms);
    const targets = c.firstPageTarget ? { first_page_under_30ms: api.p50_ms < TARGET_FIRST_PAGE_MS } : {};
    results.push({ name: c.name, endpoint: c.endpoint, api, raw_sql: rawSql, ratio_p50: ratio, targets, met: Object.values(targets).every(Boolean) });
    log(`${c.name}: p50 ${api.p50_ms} ms, p99 ${api.p99_ms} ms, ${api.rps} rps; raw SQL p50 ${rawSql.p50_ms} ms (×${ratio})`);
  }
  return results;
}

/**
 * Where the gap between an endpoint and its SQL goes: every API request also authenticates its key and
 * counts the hit (one rate_limit_hit call, a write that waits for the WAL flush at commit).
 */
async function measureBaselines(sqlc: postgres.Sql, keyId: string, get: (url: string) => Promise<void>) {
  const keyHash = (await sqlc<{ key_hash: string }[]>`select key_hash from api_keys where id = ${keyId}`)[0]!.key_hash;
  const asyncCommit = postgres(benchUrl, { max: 10, onnotice: () => {}, connection: { synchronous_commit: "off" } });
  const baselines: { name: string; stats: Stats }[] = [];
  const baseline = async (name: string, run: (i: number) => Promise<unknown>) => {
    const stats = await measure(run);
    baselines.push({ name, stats });
    log(`baseline ${name}: p50 ${stats.p50_ms} ms, p99 ${stats.p99_ms} ms, ${stats.rps} rps`);
  };
  try {
    await baseline("HTTP GET /api/health (no key; select 1)", () => get("/api/health"));
    await baseline("SQL api key lookup", () => sqlc`select * from api_keys where key_hash = ${keyHash} limit 1`);
    await baseline("SQL rate_limit_hit (synchronous_commit on, as the app)", () =>
      sqlc`select * from rate_limit_hit(${keyId}::uuid, 1000000)`,
    );
    await baseline("SQL rate_limit_hit (synchronous_commit off)", () =>
      asyncCommit`select * from rate_limit_hit(${keyId}::uuid, 1000000)`,
    );
  } finally {
    await asyncCommit.end({ timeout: 5 });
  }
  return baselines;
}

/** The app beside the bare reference server for every API read endpoint it implements, and the health floor in each one's rounds. */
async function measureAppVsBare(sqlc: postgres.Sql, orgId: string, key: string) {
  bare = await startBareServer(benchUrl);
  const targets: { app: Target; bare: Target } = {
    app: { name: "app", baseUrl: server!.baseUrl, pid: server!.process.pid! },
    bare: bare.target,
  };
  const floorSize = roundSize("GET /api/health", BARE_REQUESTS);
  await warmUpFloor(targets.app, key, floorSize);
  const comparisons = [];
  for (const endpoint of apiEndpoints(await endpointSamples(sqlc, orgId))) {
    const c = await compare(endpoint, targets, key, roundSize(endpoint.name, BARE_REQUESTS), floorSize);
    comparisons.push(c);
    const held = (met: boolean) => (met ? "holds" : "MISSED");
    log(
      `${c.endpoint}: app ${c.app.rps} req/s, ${c.app.cpu_ms_per_request} ms CPU, p50 ${c.app.p50_ms} ms; ` +
        `bare ${c.bare.rps} req/s, ${c.bare.cpu_ms_per_request} ms CPU, p50 ${c.bare.p50_ms} ms; ` +
        `CPU target ${held(c.targets.cpu)} (${c.app.cpu_ms_per_request} vs ≤ ${c.targets.cpu_limit_ms} ms = floor ${c.floor.cpu_ms_per_request} + bare + ${CPU_MARGIN_MS}), ` +
        `req/s ${held(c.targets.throughput)} (${c.ratio_rps}x vs ≤ ${c.targets.ratio_limit}x), p50 ${held(c.targets.p50)} (${c.ratio_p50}x)`,
    );
  }
  const health = overallFloor(comparisons);
  log(`health floor over every endpoint's rounds: ${health.rps} req/s, ${health.cpu_ms_per_request} ms CPU, p50 ${health.p50_ms} ms`);
  return { comparisons, health, all_targets_met: comparisons.every((c) => c.targets.cpu && c.targets.throughput && c.targets.p50) };
}

/** Every dashboard page, signed in as the measured organization's owner. */
async function measureDashboard(sqlc: postgres.Sql, orgId: string, samples: Samples) {
  const picked = await dashboardSamples(sqlc, orgId, samples.orderIds[0]!);
  const results = await measureDashboardPages({ baseUrl: server!.baseUrl, pid: server!.process.pid! }, DASHBOARD_LOGIN, dashboardPages(picked), DASHBOARD_SAMPLES, log);
  return { email_fragment: picked.emailFragment, order_number: picked.orderNumber, pages: results, all_targets_met: results.every((r) => r.met) };
}

async function measureSearchSection(sqlc: postgres.Sql, seeded: Seeded) {
  const search = await measureSearch({
    baseUrl: server!.baseUrl,
    key: seeded.key,
    sqlc,
    databaseUrl: benchUrl,
    orgId: seeded.orgId,
    samples: Number(args["search-samples"]),
    budgetMs: SAMPLE_BUDGET_MS,
    rateLimitSeconds: Number(args["rate-limit-seconds"]),
    log,
  });
  const measuredAt = new Date().toISOString();
  const loadAverage = loadavg().map((v) => v.toFixed(2)).join(", ");
  saveResults("search", { measured_at: measuredAt, load_average: loadAverage, ...search });
  saveMarkdownSection("search", searchLines(search, measuredAt, loadAverage));
  log(`search: all targets met: ${search.all_targets_met}`);
}

async function main() {
  const runStarted = performance.now();
  const seeded = await seedBenchDatabase();
  raw = postgres(benchUrl, { max: 10, onnotice: () => {} });
  const sqlc = raw;
  const samples = await pickSamples(sqlc, seeded.orgId);

  await ensureBuild(log);
  log("starting next start");
  server = await startNextServer(benchUrl);
  const get = apiGetter(server.baseUrl, seeded.key);

  const results = SECTIONS.has("cases") ? await measureCases(benchCases(sqlc, seeded.orgId, samples), get) : [];
  const baselines = SECTIONS.has("baselines") ? await measureBaselines(sqlc, seeded.keyId, get) : [];
  const appVsBare = SECTIONS.has("app-vs-bare") ? await measureAppVsBare(sqlc, seeded.orgId, seeded.key) : undefined;
  const dashboard = SECTIONS.has("dashboard") ? await measureDashboard(sqlc, seeded.orgId, samples) : undefined;
  if (SECTIONS.has("search")) await measureSearchSection(sqlc, seeded);

  const [version] = await sqlc<{ version: string }[]>`select version()`;
  const summary = {
    measured_at: new Date().toISOString(),
    postgres: version!.version.split(",")[0],
    orders_main_organization: ORDERS,
    orders_other_organization: OTHER_ORDERS,
    seed_seconds: seeded.seed.seedSeconds,
    seeded_at: seeded.seed.seededAt,
    template_reused: seeded.seed.templateReused,
    clone_seconds: seeded.seed.cloneSeconds,
    page_size: PAGE_SIZE,
    date_window: { date_from: samples.dateFrom, date_to: samples.dateTo },
    samples_per_case: SAMPLES,
    warmup_per_case: WARMUP,
    sample_budget_ms: SAMPLE_BUDGET_MS,
    throughput: { concurrency: CONCURRENCY, max_requests: THROUGHPUT_REQUESTS, budget_ms: THROUGHPUT_BUDGET_MS },
    targets: { transactions_first_page_p50_ms: TARGET_FIRST_PAGE_MS },
    sections: [...SECTIONS],
    all_targets_met:
      results.every((r) => r.met) && appVsBare?.all_targets_met !== false && dashboard?.all_targets_met !== false,
    cases: results,
    baselines,
    app_vs_bare: appVsBare,
    dashboard,
  };
  // A run of the search section alone leaves the API section of an earlier run as it was.
  const apiMeasured = API_SECTIONS.some((section) => SECTIONS.has(section));
  if (apiMeasured) writeResults(summary);
  // The search section logged its own verdict; summary.all_targets_met is the API sections' alone.
  log(`done in ${round((performance.now() - runStarted) / 1000)} s${apiMeasured ? `; API sections' targets met: ${summary.all_targets_met}` : ""}`);
}

interface Summary {
  measured_at: string;
  postgres: string | undefined;
  orders_main_organization: number;
  orders_other_organization: number;
  seed_seconds: number;
  seeded_at: string;
  template_reused: boolean;
  clone_seconds: number;
  date_window: { date_from: string; date_to: string };
  all_targets_met: boolean;
  cases: CaseResult[];
  baselines: { name: string; stats: Stats }[];
  app_vs_bare?: Awaited<ReturnType<typeof measureAppVsBare>>;
  dashboard?: Awaited<ReturnType<typeof measureDashboard>>;
}

function writeResults(summary: Summary & Record<string, unknown>) {
  saveResults("api", summary);

  const yesNo = (value: boolean | undefined) => (value === undefined ? "" : value ? "yes" : "**no**");
  const lines = [
    "# API benchmark",
    "",
    `Measured ${summary.measured_at} by \`npm run bench\` on ${summary.postgres}: ${summary.orders_main_organization.toLocaleString("en")} orders in the measured organization, ` +
      `${summary.orders_other_organization.toLocaleString("en")} in another (seeded into the template in ${summary.seed_seconds} s${summary.template_reused ? ` by an earlier run, ${summary.seeded_at}` : ""}; ` +
      `this run's copy of it took ${summary.clone_seconds} s). ` +
      `Up to ${SAMPLES} sequential samples per case (at least ${MIN_SAMPLES}, within ${SAMPLE_BUDGET_MS / 1000} s) after up to ${WARMUP} warm-up requests; ` +
      `rps with ${CONCURRENCY} concurrent callers over up to ${THROUGHPUT_REQUESTS} requests (within ${THROUGHPUT_BUDGET_MS / 1000} s). ` +
      `Transactions pages have size=${PAGE_SIZE}; "+dates" filters created_at to ${summary.date_window.date_from} .. ${summary.date_window.date_to}. ` +
      "Raw SQL is the same statements the endpoint issues (page + count in parallel, then items and campaigns), run through postgres.js.",
    "",
    "Target: transactions first page p50 under 30 ms. Raw SQL is a reference, not a target: issue 18 replaced the " +
      "earlier \"p50 within 2x of raw SQL\", which left out the HTTP floor, with the app/bare targets below.",
    "",
    "| Endpoint | p50 (ms) | p99 (ms) | rps | raw SQL p50 (ms) | app/raw SQL p50 | first page < 30 ms |",
    "|---|---:|---:|---:|---:|---:|---|",
    ...summary.cases.map(
      (r) =>
        `| ${r.name} | ${r.api.p50_ms} | ${r.api.p99_ms} | ${r.api.rps} | ${r.raw_sql.p50_ms} | ${r.ratio_p50} | ${yesNo(r.targets.first_page_under_30ms)} |`,
    ),
    "",
    "Fixed costs of every API request, measured in the same run:",
    "",
    "| Baseline | p50 (ms) | p99 (ms) | rps |",
    "|---|---:|---:|---:|",
    ...summary.baselines.map((b) => `| ${b.name} | ${b.stats.p50_ms} | ${b.stats.p99_ms} | ${b.stats.rps} |`),
    "",
    ...(summary.app_vs_bare ? comparisonLines(summary.app_vs_bare.comparisons, summary.app_vs_bare.health) : []),
    "",
    ...(summary.dashboard ? dashboardLines(summary.dashboard.pages) : []),
  ];
  saveMarkdownSection("api", lines);
}

cleanUpOnInterrupt(cleanUp, log);

try {
  await main();
} finally {
  await cleanUp();
}
