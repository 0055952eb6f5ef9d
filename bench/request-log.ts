/**
 * `npm run bench` (request_log): what logging every sk_ request costs the API's latency.
 *
 * PostgreSQL only. Creates a database `bench_reqlog_<timestamp>` on the server of DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), seeds one organization with --orders orders, and starts two `next
 * start` servers of the production build on it, one with REQUEST_LOG_ENABLED=true and one with false. Then, for each
 * endpoint, --rounds rounds: warm-up, then --samples request pairs (the same request to each server in turn, which
 * goes first alternating), p50 per server. The figure is the median of the rounds' p50s per server, and the
 * difference "on − off" (target: under 1 ms). Writes bench/results.json (under "request_log") and its section of
 * bench/results.md; the database is dropped at the end.
 *
 *   tsx --conditions=react-server bench/request-log.ts [-- --orders 10000 --rounds 3 --samples 300 --warmup 30]
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import postgres from "postgres";
import type { DatabaseHandle } from "@/db/client";
import type { ApiRequest, RouteHandler } from "@/lib/http/route";
import { benchDatabase } from "./support/database";
import { request } from "./support/http-client";
import { benchLogger } from "./support/log";
import { saveMarkdownSection, saveResults } from "./support/results";
import { cleanUpOnInterrupt, ensureBuild, startNextServer, type BenchServer } from "./support/server";
import { median, round } from "./support/stats";

process.env.LOG_LEVEL ??= "warn";
process.env.NEXT_TELEMETRY_DISABLED = "1";

const { values: args } = parseArgs({
  options: {
    orders: { type: "string", default: "10000" },
    rounds: { type: "string", default: "3" },
    samples: { type: "string", default: "300" },
    warmup: { type: "string", default: "30" },
  },
});
const ORDERS = Number(args.orders);
const ROUNDS = Number(args.rounds);
const SAMPLES = Number(args.samples);
const WARMUP = Number(args.warmup);
const TARGET_DELTA_MS = 1;

const log = benchLogger("request-log");
const database = benchDatabase("bench_reqlog");
process.env.DATABASE_URL = database.url;
const { createOrganization } = await import("@/lib/organizations/organizations");
const { createApiKey } = await import("@/lib/auth/api-keys");
const { bulkSeedOrders } = await import("@/lib/demo/bulk-seed");
const { toPublicId } = await import("@/lib/ids");

const MODES = ["on", "off"] as const;
type Mode = (typeof MODES)[number];

let handle: DatabaseHandle | undefined;
const servers: Partial<Record<Mode, BenchServer>> = {};
let cleaning: Promise<void> | undefined;
const cleanUp = () =>
  (cleaning ??= (async () => {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    await database.drop();
  })());

interface Endpoint {
  name: string;
  request: (i: number) => { path: string; method: string; body?: string; status: number };
}

const VENUE = { name: "Bench hall", address: { street: "Street 1", city: "Stockholm", postal_code: "111 57", country: "SE" }, capacity: 500 };

function endpoints(orderIds: string[]): Endpoint[] {
  return [
    { name: "GET /v1/orders/:id", request: (i) => ({ method: "GET", path: `/v1/orders/${toPublicId("order", orderIds[i % orderIds.length]!)}`, status: 200 }) },
    { name: "GET /v1/orders", request: () => ({ method: "GET", path: "/v1/orders", status: 200 }) },
    // A write: its body is kept for the log (redacted and serialized when the batch is written).
    { name: "POST /v1/venues", request: () => ({ method: "POST", path: "/v1/venues", body: JSON.stringify(VENUE), status: 201 }) },
  ];
}

const IN_PROCESS_REQUESTS = 5_000;

/**
 * What the log adds to a request inside the process, without HTTP and the machine's scheduling noise around it: a
 * handler answering a POST with a body, bare and as the route wrapper runs it with the log (key and body noted,
 * record queued; the batches of 500 it fills are written meanwhile, as in a server). Interleaved rounds; µs per request.
 */
async function inProcessCost(organizationId: string, apiKeyId: string) {
  const { noteApiKey, noteRequestBody, withRequestLog } = await import("@/lib/request-log/capture");
  const { flushRequestLog } = await import("@/lib/request-log/buffer");
  const headers = { "X-Trace-Id": "0".repeat(24), Location: "/v1/venues/ven_0190f0a1b2c37d4e8f9a0b1c2d3e4f50" };
  const text = async (request: ApiRequest) => {
    const chunks: Uint8Array[] = [];
    for await (const chunk of request.body ?? []) chunks.push(chunk);
    return Buffer.concat(chunks).toString("utf8");
  };
  const bare: RouteHandler = async (request) => {
    await text(request);
    return { status: 201, headers, body: null };
  };
  const logged = withRequestLog(async (request) => {
    noteApiKey(request, { id: apiKeyId, organizationId });
    noteRequestBody(request, JSON.parse(await text(request)));
    return { status: 201, headers, body: null };
  });
  const context = { params: {} };
  const body = Buffer.from(JSON.stringify(VENUE));
  const perRequestUs = async (serve: RouteHandler) => {
    const started = performance.now();
    for (let i = 0; i < IN_PROCESS_REQUESTS; i++) {
      const request: ApiRequest = {
        method: "POST",
        url: "http://127.0.0.1/v1/venues",
        headers: new Headers({ "Content-Type": "application/json", "User-Agent": "bench" }),
        body: (async function* () {
          yield body;
        })(),
      };
      await serve(request, context);
    }
    return ((performance.now() - started) / IN_PROCESS_REQUESTS) * 1000;
  };
  const rounds: Record<Mode, number[]> = { on: [], off: [] };
  for (let round_ = 0; round_ < ROUNDS * 2 + 1; round_++) {
    rounds.on.push(await perRequestUs(logged));
    rounds.off.push(await perRequestUs(bare));
  }
  await flushRequestLog();
  const on = median(rounds.on);
  const off = median(rounds.off);
  return { requests_per_round: IN_PROCESS_REQUESTS, on_us: round(on), off_us: round(off), added_us: round(on - off), rounds };
}

/**
 * One round: `WARMUP` unmeasured requests, then `SAMPLES` pairs, each the same request to both servers one after the
 * other (which goes first alternates), so both meet the same moment of a shared, busy machine. p50 per server.
 */
async function pairedRound(key: string, endpoint: Endpoint): Promise<Record<Mode | "pairedDelta", number>> {
  const call = async (mode: Mode, i: number) => {
    const { method, path, body, status } = endpoint.request(i);
    const headers: Record<string, string> = { Authorization: `Bearer ${key}`, ...(body ? { "Content-Type": "application/json" } : {}) };
    const started = performance.now();
    const response = await request(servers[mode]!.baseUrl + path, { method, headers, body });
    if (response.status !== status) throw new Error(`${method} ${path} → ${response.status} ${response.body.toString("utf8")}`);
    return performance.now() - started;
  };
  const latencies: Record<Mode, number[]> = { on: [], off: [] };
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    for (const mode of i % 2 ? [...MODES].reverse() : MODES) {
      const elapsed = await call(mode, i);
      if (i >= WARMUP) latencies[mode].push(elapsed);
    }
  }
  // The median of the pairs' differences also cancels what the two requests of a pair shared.
  const deltas = latencies.on.map((on, i) => on - latencies.off[i]!);
  return { on: median(latencies.on), off: median(latencies.off), pairedDelta: median(deltas) };
}

async function main() {
  const runStarted = performance.now();
  await ensureBuild(log);
  log(`creating database ${database.name}`);
  handle = await database.open();
  const organization = await createOrganization({ name: "Bench request log", currency: "SEK" });
  const { key, record: keyRecord } = await createApiKey({ organizationId: organization.id, name: "bench", scopes: ["*"], rateLimitPerMinute: 1_000_000 });
  log(`seeding ${ORDERS} orders`);
  await bulkSeedOrders(organization.id, ORDERS);
  await handle.exec("vacuum analyze orders, order_items, organizations");

  const sqlc = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    const orderIds = (await sqlc<{ id: string }[]>`select id from orders order by random() limit 500`).map((row) => row.id);
    const inProcess = await inProcessCost(organization.id, keyRecord.id);
    log(`in process: ${inProcess.added_us} µs per request added by the log (${inProcess.on_us} µs with, ${inProcess.off_us} µs without)`);
    const inProcessRows = inProcess.requests_per_round * inProcess.rounds.on.length;
    log("starting the app twice: request log on and off");
    servers.on = await startNextServer(database.url, { REQUEST_LOG_ENABLED: "true" });
    servers.off = await startNextServer(database.url, { REQUEST_LOG_ENABLED: "false" });

    const results = [];
    for (const endpoint of endpoints(orderIds)) {
      const rounds: Record<Mode | "pairedDelta", number[]> = { on: [], off: [], pairedDelta: [] };
      for (let round_ = 0; round_ < ROUNDS; round_++) {
        const p50 = await pairedRound(key, endpoint);
        for (const name of [...MODES, "pairedDelta"] as const) rounds[name].push(p50[name]);
      }
      const on = median(rounds.on);
      const off = median(rounds.off);
      const delta = round(on - off, 3);
      const pairedDelta = round(median(rounds.pairedDelta), 3);
      results.push({
        endpoint: endpoint.name,
        p50_on_ms: round(on, 3),
        p50_off_ms: round(off, 3),
        delta_ms: delta,
        paired_delta_ms: pairedDelta,
        rounds,
        met: delta < TARGET_DELTA_MS,
      });
      const list = (values: number[]) => values.map((v) => round(v, 2)).join(", ");
      log(`${endpoint.name}: p50 on ${round(on, 3)} ms, off ${round(off, 3)} ms, on − off ${delta} ms, median pair difference ${pairedDelta} ms (rounds on ${list(rounds.on)}; off ${list(rounds.off)})`);
    }
    // The servers were stopped (flushing their buffers) before the count, so it covers every logged request.
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    const [{ n: logged } = { n: 0 }] = await sqlc<{ n: number }[]>`select count(*)::int - ${inProcessRows}::int as n from request_log`;
    const expected = results.length * ROUNDS * (SAMPLES + WARMUP);
    const [version] = await sqlc<{ version: string }[]>`select version()`;
    const summary = {
      measured_at: new Date().toISOString(),
      postgres: version!.version.split(",")[0],
      orders: ORDERS,
      rounds: ROUNDS,
      samples_per_round: SAMPLES,
      warmup_per_round: WARMUP,
      target_delta_ms: TARGET_DELTA_MS,
      // One-minute load average at the end: on a shared machine the noise can exceed the effect measured.
      load_average: round(loadavg()[0]!),
      rows_logged_by_the_on_server: logged,
      requests_made_to_the_on_server: expected,
      all_targets_met: results.every((r) => r.met),
      in_process: inProcess,
      endpoints: results,
      seconds: round((performance.now() - runStarted) / 1000),
    };
    saveResults("request_log", summary);
    saveMarkdownSection("request_log", [
      "# Request log overhead",
      "",
      `Measured ${summary.measured_at} on ${summary.postgres}, ${ORDERS.toLocaleString("en")} orders: two \`next start\` servers of the same build on the same database, ` +
        `REQUEST_LOG_ENABLED=true and false. Per endpoint ${ROUNDS} rounds, each ${WARMUP} warm-up then ${SAMPLES} pairs of sequential requests ` +
        `(the same request to each server in turn, which one goes first alternating, so both meet the same moment of the machine); ` +
        `the figure is the median of the rounds' p50s. Target: on − off under ${TARGET_DELTA_MS} ms. ` +
        `Load average at the end: ${summary.load_average} (the rounds' spread below shows the machine's noise).`,
      "",
      "| Endpoint | p50 log on (ms) | p50 log off (ms) | on − off (ms) | under 1 ms | median pair difference (ms) |",
      "|---|---:|---:|---:|---|---:|",
      ...results.map((r) => `| ${r.endpoint} | ${r.p50_on_ms} | ${r.p50_off_ms} | ${r.delta_ms} | ${r.met ? "yes" : "**no**"} | ${r.paired_delta_ms} |`),
      "",
      `In process (no HTTP; ${inProcess.requests_per_round.toLocaleString("en")} POSTs per round, ${inProcess.rounds.on.length} interleaved rounds, medians): ` +
        `the route wrapper with the log takes ${inProcess.on_us} µs per request against ${inProcess.off_us} µs without, **${inProcess.added_us} µs added** ` +
        "(key and body noted, record queued, and the batches it fills written meanwhile).",
      "",
      `The "on" server wrote ${logged.toLocaleString("en")} request log rows for the ${expected.toLocaleString("en")} requests it answered (flushed on shutdown included).`,
    ]);
    log(`done in ${summary.seconds} s; all targets met: ${summary.all_targets_met}`);
  } finally {
    await sqlc.end({ timeout: 5 });
  }
}

cleanUpOnInterrupt(cleanUp, log);

try {
  await main();
} finally {
  await cleanUp();
}
