/**
 * `npx tsx --conditions=react-server bench/analytics.ts` (part of `npm run bench`): the sales summary and the transactions export at
 * 1,000,000 orders on PostgreSQL.
 *
 * Creates a database `bench_analytics_<timestamp>` on the server of DATABASE_URL as a copy of the seeded
 * template that bench/run.ts also uses (support/database.ts; seeded first when missing): one organization with
 * 1,000,000 orders over the year before the seed (admin seed-orders' bulkSeedOrders), another with 100,000. It
 * adds an API key to the first, starts the production build (`next start`) and measures:
 *   - GET /analytics_search/api/summary over one year, group_by=day, month, event and ticket_type (sequential
 *     samples; p50)
 *   - GET /analytics_search/api/transactions/export of every order as CSV, as JSON Lines, and as CSV with one row
 *     per cart item (rows=items), one after another, then JSON Lines and rows=items at once, then CSV again: first
 *     byte, total time, rows, bytes, and the peak RSS of the server's process tree (/proc, sampled every 50 ms)
 *     over its idle RSS, measured once before the first export (what is left over from one export counts against
 *     the next, as on a server that exports all day)
 * Writes bench/results.json (under "analytics") and its section of bench/results.md. The copy is dropped at the end.
 *
 *   npx tsx --conditions=react-server bench/analytics.ts [-- --orders 1000000 --other-orders 100000 --samples 50]
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { DatabaseHandle } from "@/db/client";
import { benchDatabase } from "./support/database";
import { keepAliveGet } from "./support/http-client";
import { benchLogger } from "./support/log";
import { saveMarkdownSection, saveResults } from "./support/results";
import { cleanUpOnInterrupt, ensureBuild, startNextServer, type BenchServer } from "./support/server";
import { latencySummary, round, type LatencySummary } from "./support/stats";
import { sampleTreeRss, treeRss } from "../tests/support/process-rss";

process.env.LOG_LEVEL ??= "warn";
process.env.NEXT_TELEMETRY_DISABLED = "1";

const { values: args } = parseArgs({
  options: {
    orders: { type: "string", default: "1000000" },
    // The other organization of the seeded template that bench/run.ts also uses (support/database.ts).
    "other-orders": { type: "string", default: "100000" },
    samples: { type: "string", default: "50" },
    warmup: { type: "string", default: "5" },
  },
});
const ORDERS = Number(args.orders);
const OTHER_ORDERS = Number(args["other-orders"]);
const SAMPLES = Number(args.samples);
const WARMUP = Number(args.warmup);
/** Target p50 per grouping (issue 16); ticket_type has none, it is measured for reference. */
const TARGETS: Record<string, number | undefined> = { day: 50, month: 50, event: 100, ticket_type: undefined };
const EXPORT_TARGET_S = 60;
const MEMORY_TARGET_MB = 100;

const log = benchLogger("analytics");
const database = benchDatabase("bench_analytics");
process.env.DATABASE_URL = database.url;
const { createApiKey } = await import("@/lib/auth/api-keys");

let server: BenchServer | undefined;
let handle: DatabaseHandle | undefined;
let cleaning: Promise<void> | undefined;
const cleanUp = () =>
  (cleaning ??= (async () => {
    await server?.stop();
    await database.drop();
  })());

const MB = 1024 * 1024;

async function main() {
  const runStarted = performance.now();
  log(`creating database ${database.name} from the seeded template (${ORDERS} + ${OTHER_ORDERS} orders; seeded first when missing)`);
  const opened = await database.openSeeded({ orders: ORDERS, otherOrders: OTHER_ORDERS });
  handle = opened.handle;
  const seed = opened.seeded;
  log(`template ${seed.templateReused ? "reused" : "seeded"} (${seed.seedSeconds} s to seed, ${seed.cloneSeconds} s to copy); vacuum analyze`);
  const { key } = await createApiKey({ organizationId: seed.mainOrganizationId, name: "bench", scopes: ["orders:read"], rateLimitPerMinute: 1_000_000 });
  const seedSeconds = seed.seedSeconds;
  // The seeded orders span the 365 days before the seed, whenever the template was made.
  const now = new Date(seed.seededAt);
  await handle.exec("vacuum analyze orders, order_items, order_daily_sales, organizations");

  await ensureBuild(log);
  const loadBefore = round(loadavg()[0]!);
  server = await startNextServer(database.url);
  const headers = { Authorization: `Bearer ${key}` };
  const get = (path: string) => keepAliveGet(server!.baseUrl + path, headers);

  // One year ending today; the seeded orders span the 365 days before `now`.
  const dateTo = now.toISOString().slice(0, 10);
  const dateFrom = new Date(now.getTime() - 364 * 86_400_000).toISOString().slice(0, 10);
  const summaries: { group_by: string; target_ms: number | null; latency: LatencySummary; met: boolean | null }[] = [];
  for (const groupBy of Object.keys(TARGETS)) {
    const path = `/analytics_search/api/summary?group_by=${groupBy}&date_from=${dateFrom}&date_to=${dateTo}`;
    for (let i = 0; i < WARMUP; i++) await get(path);
    const latencies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const started = performance.now();
      await get(path);
      latencies.push(performance.now() - started);
    }
    const latency = latencySummary(latencies);
    const target = TARGETS[groupBy] ?? null;
    summaries.push({ group_by: groupBy, target_ms: target, latency, met: target === null ? null : latency.p50_ms < target });
    log(`summary group_by=${groupBy}: p50 ${latency.p50_ms} ms`);
  }

  // Idle: after the summaries and a small export of each kind have loaded every module the exports use.
  for (const variant of EXPORTS) await get(`/analytics_search/api/transactions/export?${variant.query}&q=nobody-matches-this`);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const pid = server.process.pid!;
  const idleRss = treeRss(pid);
  const exports: ExportResult[] = [];
  for (const [stepIndex, step] of EXPORT_STEPS.entries()) {
    const sampler = sampleTreeRss(pid);
    const reads = await Promise.all(step.map((variant) => readExport(server!.baseUrl, headers, variant)));
    const peakRss = sampler.stop();
    const concurrent = step.length > 1;
    for (const [index, read] of reads.entries()) {
      const variant = step[index]!;
      const growthMb = (peakRss - idleRss) / MB;
      const e: ExportResult = {
        ...read,
        name: variant.name,
        position: stepIndex + 1,
        concurrent,
        peak_rss_mb: round(peakRss / MB),
        growth_mb: round(growthMb),
        // Alone, an export must finish within the time target; two at once share the CPUs, so only memory counts.
        met: read.status === 200 && read.rows === variant.rows && (concurrent || read.total_s < EXPORT_TARGET_S) && growthMb < MEMORY_TARGET_MB,
      };
      exports.push(e);
      log(`export ${e.position} ${variant.name}${concurrent ? " (concurrent)" : ""}: ${e.rows} rows, ${e.size_mb} MB, first byte ${e.first_byte_ms} ms, ${e.total_s} s, RSS +${e.growth_mb} MB over idle`);
    }
  }
  const memoryMet = exports.every((e) => e.growth_mb < MEMORY_TARGET_MB);
  const loadAfter = round(loadavg()[0]!);

  const result = {
    measured_at: new Date().toISOString(),
    orders: ORDERS,
    seed_seconds: seedSeconds,
    other_organization_orders: OTHER_ORDERS,
    template_reused: seed.templateReused,
    clone_seconds: seed.cloneSeconds,
    samples: SAMPLES,
    date_window: { date_from: dateFrom, date_to: dateTo },
    summaries,
    idle_rss_mb: round(idleRss / MB),
    exports,
    export_memory_met: memoryMet,
    load_average: { before_summaries: loadBefore, after_exports: loadAfter },
    run_seconds: round((performance.now() - runStarted) / 1000),
  };
  saveResults("analytics", result);
  const yesNo = (met: boolean | null) => (met === null ? "" : met ? "yes" : "**no**");
  saveMarkdownSection("analytics", [
    "# Analytics benchmark",
    "",
    `Measured ${result.measured_at} by \`npx tsx --conditions=react-server bench/analytics.ts\` on PostgreSQL: ${ORDERS.toLocaleString("en-GB")} orders over the year before the seed ` +
      `in the measured organization and ${OTHER_ORDERS.toLocaleString("en-GB")} in another (bulkSeedOrders, one cart item each, ${seedSeconds} s to seed the template${seed.templateReused ? " in an earlier run" : ""}, ${seed.cloneSeconds} s to copy it), served by \`next start\` (production build). ${SAMPLES} sequential samples per summary after ${WARMUP} warm-up requests, ` +
      `one year (${dateFrom} .. ${dateTo}). The machine (2 CPUs) is shared with other work: 1-minute load average ${loadBefore} before the summaries, ${loadAfter} after the exports.`,
    "",
    "| Summary (one year) | p50 (ms) | p95 (ms) | p99 (ms) | target p50 | met |",
    "|---|---:|---:|---:|---:|---|",
    ...summaries.map(
      (s) => `| group_by=${s.group_by} | ${s.latency.p50_ms} | ${s.latency.p95_ms} | ${s.latency.p99_ms} | ${s.target_ms === null ? "none" : `< ${s.target_ms} ms`} | ${yesNo(s.met)} |`,
    ),
    "",
    `Exports of every order on one server: three one after another, then two at once (marked ∥, sharing one RSS peak), then CSV again. RSS is the server's process tree sampled every 50 ms, its growth the peak over the idle RSS measured once before the first export (${result.idle_rss_mb} MB), so what one export leaves behind counts against the next. Targets: under ${EXPORT_TARGET_S} s (alone) and within ${MEMORY_TARGET_MB} MB of idle.`,
    "",
    "| # | Export | rows | size (MB) | first byte (ms) | total (s) | peak RSS (MB) | growth (MB) | met |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---|",
    ...exports.map(
      (e) =>
        `| ${e.position} | ${e.name}${e.concurrent ? " ∥" : ""} | ${e.rows.toLocaleString("en-GB")} | ${e.size_mb} | ${e.first_byte_ms} | ${e.total_s} | ${e.peak_rss_mb} | +${e.growth_mb} | ${yesNo(e.met)} |`,
    ),
    "",
    `Export memory in sequence and at once within ${MEMORY_TARGET_MB} MB of idle: ${memoryMet ? "**met**" : "**not met**"} (largest growth +${round(Math.max(...exports.map((e) => e.growth_mb)))} MB).`,
  ]);
}

interface ExportVariant {
  name: string;
  query: string;
  /** The rows the export must hold, besides a CSV header. */
  rows: number;
}

/** Every order as CSV (the default), as JSON Lines, and one CSV row per cart item (bulkSeedOrders writes one item an order). */
const CSV: ExportVariant = { name: "CSV, one row per order", query: "format=csv", rows: ORDERS };
const JSONL: ExportVariant = { name: "JSON Lines, one row per order", query: "format=jsonl", rows: ORDERS };
const ITEMS: ExportVariant = { name: "CSV, one row per item (rows=items)", query: "format=csv&rows=items", rows: ORDERS };
const EXPORTS = [CSV, JSONL, ITEMS];
/** Each step's exports run at once; the steps run one after another against the one idle RSS. */
const EXPORT_STEPS: ExportVariant[][] = [[CSV], [JSONL], [ITEMS], [JSONL, ITEMS], [CSV]];

interface ExportRead {
  status: number;
  rows: number;
  size_mb: number;
  first_byte_ms: number;
  total_s: number;
}

interface ExportResult extends ExportRead {
  name: string;
  /** Its place in the run (concurrent exports share one). */
  position: number;
  concurrent: boolean;
  peak_rss_mb: number;
  growth_mb: number;
  met: boolean;
}

async function readExport(baseUrl: string, headers: Record<string, string>, variant: ExportVariant): Promise<ExportRead> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/analytics_search/api/transactions/export?${variant.query}`, { headers });
  let firstByteMs = NaN;
  let bytes = 0;
  let lines = 0;
  const reader = response.body!.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - started;
    bytes += chunk.value.byteLength;
    for (let at = chunk.value.indexOf(10); at >= 0; at = chunk.value.indexOf(10, at + 1)) lines++;
  }
  return {
    status: response.status,
    rows: variant.query.includes("format=jsonl") ? lines : lines - 1,
    size_mb: round(bytes / MB),
    first_byte_ms: round(firstByteMs),
    total_s: round((performance.now() - started) / 1000),
  };
}

cleanUpOnInterrupt(cleanUp, log);
try {
  await main();
} finally {
  await cleanUp();
}
