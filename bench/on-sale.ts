/**
 * On-sale rush benchmark: `--buyers` concurrent buyers of one ticket type, each completing orders of one
 * ticket back to back, (a) as the order's statements in raw SQL through postgres.js (bench/support/raw-order.ts) and (b) as
 * `POST /v1/orders` against `npm start` on PostgreSQL (as deployed: a web worker per core and the delivery worker). The two are
 * interleaved, `--reps` times each, and medians reported; afterwards the ticket type's quantity_sold must
 * equal the tickets in its order items and the number of orders that succeeded (inventory exact). A third,
 * interleaved run is the reference for what the machine allows: the same raw SQL with a ticket type per buyer,
 * so that no row is shared. Each run samples how many backends wait for a lock. Last, a sell-out: a ticket type
 * with half a run's tickets, a run's worth of orders for it, half the buyers through the app and half as raw
 * SQL; exactly its capacity must succeed (the last ticket sold once), every other order get "sold out".
 *
 *   npx tsx --conditions=react-server bench/on-sale.ts [--orders 2000] [--buyers 16] [--reps 3]
 *
 * Creates a fresh database `bench_onsale_<timestamp>` on the server of DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres) and drops it at the end. Writes bench/results.json (under
 * "on_sale"; other keys are kept) and its section of bench/results.md.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { benchEvent, benchTicketType, benchVenue } from "./support/catalog";
import { rawOrder } from "./support/raw-order";
import { benchLogger } from "./support/log";
import { sessionsCpuMs } from "./support/process-cpu";
import { saveMarkdownSection, saveResults } from "./support/results";
import { APP_SESSIONS, npmStartBench, npmStartCpuMs } from "./support/npm-start";
import { ensureBuild } from "./support/server";
import { round } from "./support/stats";

const { values: args } = parseArgs({
  options: {
    orders: { type: "string", default: "2000" },
    buyers: { type: "string", default: "16" },
    reps: { type: "string", default: "3" },
  },
});
const ORDERS = Number(args.orders);
const BUYERS = Number(args.buyers);
const REPS = Number(args.reps);
const TARGET_RAW_ORDERS_PER_SECOND = 400;
const TARGET_APP_RATIO = 2;
const SELL_OUT_CAPACITY = Math.floor(ORDERS / 2);
/** Runs of `ORDERS` through the app before the measured ones (see main). */
const APP_WARMUP_RUNS = 4;

const log = benchLogger("on-sale");
// The database, the server's data directory and its lifetime (cleaned up on SIGINT/SIGTERM too).
const bench = npmStartBench("bench_onsale", randomBytes(32).toString("hex"), log);
const { database } = bench;
process.env.DATABASE_URL = database.url;
process.env.LOG_LEVEL ??= "warn";

const { createOrganization } = await import("@/lib/organizations/organizations");
const { createApiKey } = await import("@/lib/auth/api-keys");
const { fromPublicId } = await import("@/lib/ids");

let raw: postgres.Sql | undefined;
async function cleanUp() {
  await raw?.end({ timeout: 5 });
  await sampler?.end({ timeout: 5 });
  await bench.cleanUp();
}

interface World {
  organizationId: string;
  apiKey: string;
  eventPublicId: string;
  eventId: string;
  ticketPublicId: string;
  ticketId: string;
  /** One ticket type per buyer, for the reference run in which no two buyers share a ticket type's row. */
  spreadTicketIds: string[];
  /** A ticket type of SELL_OUT_CAPACITY tickets for the sell-out. */
  sellOutPublicId: string;
  sellOutId: string;
}

async function setUp(): Promise<World> {
  await database.open();
  const organization = await createOrganization({ name: "Bench on-sale", currency: "SEK" });
  const { key } = await createApiKey({ organizationId: organization.id, name: "on-sale", scopes: ["*"], rateLimitPerMinute: 1_000_000 });
  const venue = await benchVenue(organization.id, "Arena");
  const event = await benchEvent(organization.id, venue.id, "The on-sale");
  const ticketType = (name: string) => benchTicketType(organization.id, event.id, name, 49_500);
  const ticket = await ticketType("General admission");
  const spread = [];
  for (let buyer = 0; buyer < BUYERS; buyer++) spread.push(await ticketType(`Block ${buyer + 1}`));
  const sellOut = await benchTicketType(organization.id, event.id, "Last few", 49_500, SELL_OUT_CAPACITY);
  return {
    organizationId: organization.id,
    apiKey: key,
    eventPublicId: event.id,
    eventId: fromPublicId("event", event.id)!,
    ticketPublicId: ticket.id,
    ticketId: fromPublicId("ticketType", ticket.id)!,
    spreadTicketIds: spread.map((row) => fromPublicId("ticketType", row.id)!),
    sellOutPublicId: sellOut.id,
    sellOutId: fromPublicId("ticketType", sellOut.id)!,
  };
}

/** One order of one ticket as the app's transaction in raw SQL (bench/support/raw-order.ts). */
function placeRaw(sqlc: postgres.Sql, world: World, n: number, ticketTypeId = world.ticketId): Promise<boolean> {
  return rawOrder(sqlc, { organizationId: world.organizationId, eventId: world.eventId, ticketTypeId }, `raw${n}@example.test`);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: BUYERS });
function postOrder(baseUrl: string, world: World, n: number, ticketPublicId = world.ticketPublicId): Promise<number> {
  const body = JSON.stringify({
    event_id: world.eventPublicId,
    customer: { email: `app${n}@example.test`, name: `App Buyer ${n}` },
    items: [{ ticket_id: ticketPublicId, quantity: 1 }],
  });
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}/v1/orders`,
      {
        method: "POST",
        agent,
        headers: { Authorization: `Bearer ${world.apiKey}`, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

interface Run {
  orders_per_second: number;
  succeeded: number;
  failed: number;
  /** Mean number of this database's backends waiting for a lock (pg_stat_activity, sampled every 25 ms). */
  lock_waits_mean: number;
  /**
   * CPU time per order, ms (bench/support/process-cpu): PostgreSQL's sessions of the run's side (the app's, or the raw SQL
   * pool's), and in app runs `npm start`'s web workers (with its primary) and its delivery worker.
   */
  cpu_ms_per_order: { postgres: number; web?: number; delivery_worker?: number };
}

let sampler: postgres.Sql | undefined;
/** Samples how many backends wait for a lock until the returned function is called, which gives their mean. */
function sampleLockWaits(): () => number {
  const samples: number[] = [];
  let running = true;
  void (async () => {
    while (running && sampler) {
      const [row] = await sampler<{ waiting: number }[]>`select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`;
      samples.push(row!.waiting);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return () => {
    running = false;
    return round(samples.reduce((sum, n) => sum + n, 0) / Math.max(1, samples.length), 1);
  };
}

// The raw SQL pool's sessions, told apart from the app's (APP_SESSIONS) and the sampler's.
const RAW_SESSIONS = "bench on-sale raw order";

/**
 * CPU time (ms) so far of one side of a run: with `serverPid`, `npm start`'s web workers (with the primary) and its
 * delivery worker, and the app's PostgreSQL sessions; without, the raw SQL pool's sessions.
 */
async function sidesCpuMs(serverPid?: number): Promise<Run["cpu_ms_per_order"]> {
  const postgres = await sessionsCpuMs(sampler!, serverPid ? APP_SESSIONS : RAW_SESSIONS);
  return serverPid ? { postgres, ...npmStartCpuMs(serverPid) } : { postgres };
}

/** `ORDERS` orders by `BUYERS` closed-loop buyers; a buyer's next order starts when its last one is answered. */
async function rush(placeOne: (n: number, buyer: number) => Promise<boolean>, offset: number, serverPid?: number): Promise<Run> {
  let next = 0;
  let succeeded = 0;
  let failed = 0;
  const stopSampling = sampleLockWaits();
  const before = await sidesCpuMs(serverPid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: BUYERS }, async (_, buyer) => {
      while (next < ORDERS) {
        const n = offset + next++;
        if (await placeOne(n, buyer).catch(() => false)) succeeded++;
        else failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = await sidesCpuMs(serverPid);
  const cpu = Object.fromEntries(
    Object.entries(after).map(([process, ms]) => [process, round((ms - before[process as keyof typeof before]!) / ORDERS, 2)]),
  ) as Run["cpu_ms_per_order"];
  return { orders_per_second: round(ORDERS / seconds, 1), succeeded, failed, lock_waits_mean: stopSampling(), cpu_ms_per_order: cpu };
}

interface SellOut {
  capacity: number;
  attempts: number;
  sold: number;
  sold_out: number;
  /** Answers that were neither a sale nor "sold out" (must be 0). */
  other: number;
  quantity_sold: number;
  tickets_in_items: number;
  exact: boolean;
}

/** RUN orders for the sell-out ticket type: even buyers through the app, odd ones as raw SQL. */
async function sellOut(sqlc: postgres.Sql, baseUrl: string, world: World, offset: number): Promise<SellOut> {
  let next = 0;
  const counts = { sold: 0, sold_out: 0, other: 0 };
  await Promise.all(
    Array.from({ length: BUYERS }, async (_, buyer) => {
      while (next < ORDERS) {
        const n = offset + next++;
        const outcome =
          buyer % 2 === 0
            ? await postOrder(baseUrl, world, n, world.sellOutPublicId).then((status) => (status === 201 ? "sold" : status === 409 ? "sold_out" : "other"))
            : await placeRaw(sqlc, world, n, world.sellOutId).then((ok) => (ok ? "sold" : "sold_out"), () => "other" as const);
        counts[outcome]++;
      }
    }),
  );
  const [row] = await sqlc<{ quantity_sold: number; items: number }[]>`
    select t.quantity_sold, (select coalesce(sum(quantity), 0)::int from order_items where ticket_type_id = t.id) as items
    from ticket_types t where t.id = ${world.sellOutId}`;
  return {
    capacity: SELL_OUT_CAPACITY,
    attempts: ORDERS,
    ...counts,
    quantity_sold: row!.quantity_sold,
    tickets_in_items: row!.items,
    exact:
      counts.sold === SELL_OUT_CAPACITY &&
      counts.sold_out === ORDERS - SELL_OUT_CAPACITY &&
      counts.other === 0 &&
      row!.quantity_sold === SELL_OUT_CAPACITY &&
      row!.items === SELL_OUT_CAPACITY,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function main() {
  await ensureBuild(log);
  const world = await setUp();
  const server = await bench.start();
  raw = postgres(database.url, { max: BUYERS, onnotice: () => {}, connection: { application_name: RAW_SESSIONS } });
  sampler = postgres(database.url, { max: 1, onnotice: () => {} });
  const sqlc = raw;
  const baseUrl = server.baseUrl;
  const serverPid = server.process.pid;

  // Each run's orders are numbered on from the last run's, so every order has a buyer address of its own.
  let numbered = 0;
  const nextOffset = () => (numbered += ORDERS) - ORDERS;
  const rawRush = () => rush((n) => placeRaw(sqlc, world, n), nextOffset());
  const appRush = () => rush(async (n) => (await postOrder(baseUrl, world, n)) === 201, nextOffset(), serverPid);

  // Warm-up: connections, prepared statements and the server's route code. Each of the app's web workers compiles its
  // hot code for itself, on the half of the orders it gets, and its CPU per order still fell through the first 6,000 to
  // 10,000 orders of a fresh start (4.12, 2.48, 1.88, 1.68 ms per run of 2,000; bench/history.md, "The on-sale rush's
  // warm-up"), so the app warms up for APP_WARMUP_RUNS runs before the first measured one.
  const warmUps = [await rawRush()];
  for (let run = 0; run < APP_WARMUP_RUNS; run++) warmUps.push(await appRush());

  const rawRuns: Run[] = [];
  const appRuns: Run[] = [];
  const spreadRuns: Run[] = [];
  for (let rep = 1; rep <= REPS; rep++) {
    rawRuns.push(await rawRush());
    appRuns.push(await appRush());
    spreadRuns.push(await rush((n, buyer) => placeRaw(sqlc, world, n, world.spreadTicketIds[buyer]), nextOffset()));
    log(
      `rep ${rep}: raw SQL ${rawRuns.at(-1)!.orders_per_second} orders/s, app ${appRuns.at(-1)!.orders_per_second} orders/s, ` +
        `raw SQL with a ticket type per buyer ${spreadRuns.at(-1)!.orders_per_second} orders/s; CPU per order: ` +
        `app's web workers ${appRuns.at(-1)!.cpu_ms_per_order.web} ms, delivery worker ${appRuns.at(-1)!.cpu_ms_per_order.delivery_worker} ms, ` +
        `PostgreSQL ${appRuns.at(-1)!.cpu_ms_per_order.postgres} ms; raw SQL's PostgreSQL ${rawRuns.at(-1)!.cpu_ms_per_order.postgres} ms`,
    );
  }
  const lastTickets = await sellOut(sqlc, baseUrl, world, nextOffset());
  log(`sell-out: ${JSON.stringify(lastTickets)}`);

  const [inventory] = await sqlc<{ sold: number; items: number; orders: number; numbers: number; mismatched_ticket_types: number }[]>`
    select (select sum(t.quantity_sold)::int from ticket_types t where t.organization_id = ${world.organizationId}) as sold,
      (select coalesce(sum(quantity), 0)::int from order_items where ticket_type_id in
        (select id from ticket_types where organization_id = ${world.organizationId})) as items,
      (select count(*)::int from orders where organization_id = ${world.organizationId}) as orders,
      (select count(distinct order_number)::int from orders where organization_id = ${world.organizationId}) as numbers,
      (select count(*)::int from ticket_types t where t.organization_id = ${world.organizationId}
        and t.quantity_sold <> (select coalesce(sum(quantity), 0) from order_items where ticket_type_id = t.id)) as mismatched_ticket_types`;
  const allRuns = [...warmUps, ...rawRuns, ...appRuns, ...spreadRuns];
  const succeeded = allRuns.reduce((sum, run) => sum + run.succeeded, 0) + lastTickets.sold;
  const failed = allRuns.reduce((sum, run) => sum + run.failed, 0);
  const inventoryExact =
    failed === 0 &&
    lastTickets.exact &&
    inventory!.mismatched_ticket_types === 0 &&
    [inventory!.sold, inventory!.items, inventory!.orders, inventory!.numbers].every((n) => n === succeeded);

  const rawMedian = median(rawRuns.map((run) => run.orders_per_second));
  const appMedian = median(appRuns.map((run) => run.orders_per_second));
  const spreadMedian = median(spreadRuns.map((run) => run.orders_per_second));
  const ratio = round(rawMedian / appMedian, 2);
  const result = {
    measured_at: new Date().toISOString(),
    load_average: os.loadavg().map((n) => round(n, 2)),
    orders_per_run: ORDERS,
    buyers: BUYERS,
    repetitions: REPS,
    raw_sql: { runs: rawRuns, median_orders_per_second: rawMedian },
    app: { runs: appRuns, median_orders_per_second: appMedian },
    raw_sql_ticket_type_per_buyer: { runs: spreadRuns, median_orders_per_second: spreadMedian },
    raw_to_app_ratio: ratio,
    inventory: { ...inventory, orders_succeeded: succeeded, failed_orders: failed, sell_out: lastTickets, exact: inventoryExact },
    targets: {
      raw_sql_at_least_400_orders_per_second: rawMedian >= TARGET_RAW_ORDERS_PER_SECOND,
      app_within_2x_of_raw_sql: ratio <= TARGET_APP_RATIO,
      inventory_exact: inventoryExact,
    },
  };
  saveResults("on_sale", result);
  const yesNo = (ok: boolean) => (ok ? "yes" : "**no**");
  const cpuOf = (runs: Run[], process: keyof Run["cpu_ms_per_order"]) => runs.map((run) => run.cpu_ms_per_order[process]).join(", ");
  saveMarkdownSection("on-sale", [
    "## On-sale rush (one ticket type, PostgreSQL)",
    "",
    `${BUYERS} concurrent buyers, ${ORDERS} orders of one ticket per run, raw SQL and app interleaved, ${REPS} repetitions, medians, after ${APP_WARMUP_RUNS} runs of warm-up through the app and one as raw SQL.`,
    `Measured ${result.measured_at}, load average ${result.load_average.join(", ")}. \`npx tsx --conditions=react-server bench/on-sale.ts\`.`,
    "",
    "| | runs (orders/s) | median orders/s | backends waiting for a lock (mean per run) |",
    "|---|---|---:|---|",
    `| raw SQL (postgres.js) | ${rawRuns.map((run) => run.orders_per_second).join(", ")} | ${rawMedian} | ${rawRuns.map((run) => run.lock_waits_mean).join(", ")} |`,
    `| POST /v1/orders (npm start, ${server.serverProcesses} web processes) | ${appRuns.map((run) => run.orders_per_second).join(", ")} | ${appMedian} | ${appRuns.map((run) => run.lock_waits_mean).join(", ")} |`,
    `| reference: raw SQL, a ticket type per buyer (no shared row) | ${spreadRuns.map((run) => run.orders_per_second).join(", ")} | ${spreadMedian} | ${spreadRuns.map((run) => run.lock_waits_mean).join(", ")} |`,
    "",
    `Raw SQL / app: ${ratio}x. CPU per order (ms, per run): the app's web workers with the primary ${cpuOf(appRuns, "web")}, its delivery worker ${cpuOf(appRuns, "delivery_worker")}, ` +
      `its PostgreSQL sessions ${cpuOf(appRuns, "postgres")}; raw SQL's PostgreSQL sessions ${cpuOf(rawRuns, "postgres")}. The reference run is what this machine allows the same transaction when buyers share no ticket type; the gap to the one-ticket-type run is the cost of queueing on that row.`,
    `Sell-out (${lastTickets.capacity} tickets, ${lastTickets.attempts} orders, half through the app, half raw SQL): ${lastTickets.sold} sold, ${lastTickets.sold_out} sold out, ${lastTickets.other} other answers; quantity_sold ${lastTickets.quantity_sold}, tickets in its order items ${lastTickets.tickets_in_items}.`,
    `Inventory (all ticket types): quantity_sold ${inventory!.sold}, tickets in order items ${inventory!.items}, orders ${inventory!.orders}, distinct order numbers ${inventory!.numbers}, ticket types whose quantity_sold differs from their items ${inventory!.mismatched_ticket_types}, failed orders ${failed}.`,
    "",
    `Targets: raw SQL ≥ ${TARGET_RAW_ORDERS_PER_SECOND} orders/s: ${yesNo(result.targets.raw_sql_at_least_400_orders_per_second)}; app within ${TARGET_APP_RATIO}x of raw SQL: ${yesNo(result.targets.app_within_2x_of_raw_sql)}; inventory exact: ${yesNo(inventoryExact)}.`,
  ]);
  console.log(JSON.stringify(result, null, 2));
  return inventoryExact;
}

let ok = false;
try {
  ok = await main();
} finally {
  agent.destroy();
  await cleanUp();
}
process.exit(ok ? 0 : 1);
