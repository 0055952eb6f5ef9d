/**
 * `npx tsx --conditions=react-server bench/workers.ts` (part of `npm run bench`): what `npm start`'s one web worker
 * per core buys. Starts `npm start` on PostgreSQL with WEB_CONCURRENCY=1 and with one worker per core (the default),
 * alternately for `--rounds` rounds, and measures API reads at concurrency 16 against each: GET /v1/orders/:id,
 * GET /v1/orders and the transactions first page, mixed in turn, `--requests` per run. The gain is the median of
 * the runs' req/s with every worker over the median with one.
 * Writes bench/results.json ("workers") and its section of bench/results.md. The database is dropped at the end.
 *
 *   npx tsx --conditions=react-server bench/workers.ts [-- --orders 20000 --rounds 3 --requests 8000]
 */
import { randomBytes } from "node:crypto";
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { keepAliveGet } from "./support/http-client";
import { benchLogger } from "./support/log";
import { npmStartBench } from "./support/npm-start";
import { saveMarkdownSection, saveResults } from "./support/results";
import { percentile, round } from "./support/stats";

const { values: args } = parseArgs({
  options: {
    orders: { type: "string", default: "20000" },
    rounds: { type: "string", default: "3" },
    requests: { type: "string", default: "8000" },
  },
});
const ORDERS = Number(args.orders);
const ROUNDS = Number(args.rounds);
const REQUESTS = Number(args.requests);
const CONCURRENCY = 16;
const CORES = availableParallelism();

const AUTH_SECRET = randomBytes(32).toString("hex");
process.env.AUTH_SECRET = AUTH_SECRET;
process.env.LOG_LEVEL ??= "warn";
process.env.NEXT_TELEMETRY_DISABLED = "1";

const log = benchLogger("workers");
const bench = npmStartBench("bench_workers", AUTH_SECRET, log);
const { database } = bench;
process.env.DATABASE_URL = database.url;

const { createOrganization } = await import("@/lib/organizations/organizations");
const { createApiKey } = await import("@/lib/auth/api-keys");
const { bulkSeedOrders } = await import("@/lib/demo/bulk-seed");
const { toPublicId } = await import("@/lib/ids");

/** GETs `paths` in turn, `REQUESTS` in all at CONCURRENCY callers over keep-alive connections (keepAliveGet); req/s. */
async function throughput(baseUrl: string, headers: Record<string, string>, paths: string[]): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) await keepAliveGet(baseUrl + paths[next++ % paths.length]!, headers);
    }),
  );
  return round(REQUESTS / ((performance.now() - started) / 1000));
}

async function main() {
  await database.open();
  const organization = await createOrganization({ name: `Bench workers ${Date.now()}`, currency: "SEK" });
  const { key } = await createApiKey({ organizationId: organization.id, name: "bench", scopes: ["*"], rateLimitPerMinute: 1_000_000 });
  log(`seeding ${ORDERS} orders`);
  await bulkSeedOrders(organization.id, ORDERS);
  const sqlc = postgres(database.url, { max: 1, onnotice: () => {} });
  const orderIds = (await sqlc<{ id: string }[]>`select id from orders where organization_id = ${organization.id} order by random() limit 50`).map((o) => o.id);
  await sqlc.end();
  const paths = [
    ...orderIds.map((id) => `/v1/orders/${toPublicId("order", id)}`),
    "/v1/orders",
    "/analytics_search/api/transactions?size=25",
  ];
  const headers = { Authorization: `Bearer ${key}` };

  const runs: { workers: number; rps: number }[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    for (const workers of [1, CORES]) {
      const app = await bench.start({ WEB_CONCURRENCY: String(workers) });
      await throughput(app.baseUrl, headers, paths.slice(0, CONCURRENCY)); // warm-up (as many requests): JIT, paths, pools
      const rps = await throughput(app.baseUrl, headers, paths);
      await app.stop();
      runs.push({ workers: app.serverProcesses, rps });
      log(`round ${r}: ${app.serverProcesses} web worker(s): ${rps} req/s`);
    }
  }
  const median = (workers: number) => {
    const sorted = runs.filter((run) => run.workers === workers).map((run) => run.rps).sort((a, b) => a - b);
    return percentile(sorted, 50);
  };
  const one = median(1);
  const all = median(CORES);
  const result = {
    measured_at: new Date().toISOString(),
    load_average: loadavg().map((v) => round(v)).join(", "),
    count: CORES,
    concurrency: CONCURRENCY,
    requests_per_run: REQUESTS,
    orders: ORDERS,
    runs,
    rps_one_worker: one,
    rps_every_core: all,
    throughput_gain: round(all / one),
  };
  saveResults("workers", result);
  saveMarkdownSection("workers", [
    "# Web workers: one per core",
    "",
    `Measured ${result.measured_at} by \`bench/workers.ts\` (load average ${result.load_average}): \`npm start\` on PostgreSQL ` +
      `with WEB_CONCURRENCY=1 and with one web worker per core (${result.count}), alternately, ${ROUNDS} rounds; ${REQUESTS} API reads per run ` +
      `at concurrency ${CONCURRENCY} (GET /v1/orders/:id, GET /v1/orders and a transactions first page in turn, ${ORDERS.toLocaleString("en")} orders). ` +
      "The load generator and PostgreSQL share the same cores.",
    "",
    "| Web workers | runs (req/s) | median req/s |",
    "|---:|---|---:|",
    ...[1, CORES].map((workers) => `| ${workers} | ${runs.filter((run) => run.workers === workers).map((run) => run.rps).join(", ")} | ${median(workers)} |`),
    "",
    `Throughput gain with every core: **${result.throughput_gain}x**.`,
  ]);
  log(`throughput gain with ${CORES} workers: ${result.throughput_gain}x`);
}

try {
  await main();
} finally {
  await bench.cleanUp();
}
