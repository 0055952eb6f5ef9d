/**
 * Orders and webhooks, measured from outside against `npm start` on PostgreSQL (lib/cli/start.ts: its web workers
 * and, where it runs one, its delivery worker), with local receivers on 127.0.0.1. Each of `--rounds` rounds runs,
 * interleaved so that load from elsewhere on the machine hits every phase alike:
 *
 * - `POST /v1/orders` at `--concurrency` callers with no integration, with one healthy integration (204), and the
 *   same order statements as raw SQL through postgres.js (the reference, bench/support/raw-order.ts);
 * - commit → first attempt: from the order's 201 to its delivery's first attempt arriving at the receiver;
 * - CPU time per order of the two orders phases by process (web, delivery worker, PostgreSQL, this one): where a
 *   healthy integration's cost goes;
 * - deliveries/s: `POST /webhooks/integrations/:id/recover` queues `--backlog` redeliveries at once, spread over 4
 *   integrations of the healthy receiver, timed until the last first attempt arrives;
 * - a receiver that always answers 500: `GET /v1/orders` p50 at concurrency 1 before and during its retry storm
 *   (right after the orders that feed it), and the healthy integration's commit → first attempt lag meanwhile.
 *
 * Before the first round, `--warmup` orders go through each orders phase (without and with the integration, and as raw
 * SQL), so that the rounds measure warm processes: each of `npm start`'s processes compiles its hot code for itself, and
 * a fresh `npm start` took about 6,000 orders to settle (web CPU per order 4.2 → 2.4–2.6 ms, orders/s 262 → 355–375 in
 * 2,000-order steps). Each measured orders phase starts once the delivery worker is idle (the previous phase's
 * retries are done), so that no phase carries another's deliveries.
 *
 *   npx tsx --conditions=react-server bench/webhook-delivery.ts [--orders 1000] [--rounds 3] [--concurrency 16] [--backlog 3000]
 *     [--warmup 3000]
 *
 * The server runs with DB_POOL_MAX=8 unless set (the machine's PostgreSQL is shared; 100 connections).
 * Results go to bench/results.json ("webhook_delivery") and bench/results.md (section webhook-delivery).
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { benchEvent, benchTicketType, benchVenue } from "./support/catalog";
import { keepAliveGet, request } from "./support/http-client";
import { cpuMs, sessionsCpuMs } from "./support/process-cpu";
import { saveMarkdownSection, saveResults } from "./support/results";
import { APP_SESSIONS, deliveryWorkerPid, npmStartBench, npmStartCpuMs } from "./support/npm-start";
import { rawOrder } from "./support/raw-order";
import { percentile, round } from "./support/stats";
import { webhookDeliveryMarkdown, webhookVerdicts, type OrderCpu, type WebhookBench, type WebhookRound } from "./support/webhook-report";

const { values } = parseArgs({
  options: {
    orders: { type: "string", default: "1000" },
    rounds: { type: "string", default: "3" },
    concurrency: { type: "string", default: "16" },
    backlog: { type: "string", default: "3000" },
    "probe-seconds": { type: "string", default: "5" },
    warmup: { type: "string", default: "3000" },
  },
});
const ORDERS = Number(values.orders);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);
const BACKLOG = Number(values.backlog);
const PROBE_MS = Number(values["probe-seconds"]) * 1000;
const WARMUP = Number(values.warmup);
const log = (message: string) => console.error(`[webhook-delivery] ${message}`);

// Before any app module reads the environment: the bench signs the user token the server verifies.
const AUTH_SECRET = randomBytes(32).toString("hex");
process.env.AUTH_SECRET = AUTH_SECRET;
process.env.LOG_LEVEL ??= "warn";
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
delete process.env.INNGEST_EVENT_KEY;
delete process.env.INNGEST_SIGNING_KEY;

const bench = npmStartBench("bench_webhooks", AUTH_SECRET, log);
const { database } = bench;

const { createOrganization } = await import("@/lib/organizations/organizations");
const { createUser } = await import("@/lib/auth/users");
const { issueUserToken } = await import("@/lib/auth/user-token");
const { createApiKey } = await import("@/lib/auth/api-keys");
const { createIntegration } = await import("@/lib/webhooks/integrations");
const { fromPublicId } = await import("@/lib/ids");

await database.open();
// The raw SQL reference's connections close once idle: the bench shares the server's max_connections with the app.
const sql = postgres(database.url, { max: CONCURRENCY, idle_timeout: 2, onnotice: () => {} });

// Receivers: each notes when every delivery's first attempt arrived (X-Webhook-Attempt 1), by order uuid.
interface Receiver {
  url: string;
  firstAttempt: Map<string, number>;
  requests: number;
}
async function receiver(status: number): Promise<Receiver & { close(): void }> {
  const state: Receiver = { url: "", firstAttempt: new Map(), requests: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      state.requests++;
      if (req.headers["x-webhook-attempt"] === "1") {
        const orderId = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { uuid: string }).uuid;
        const key = req.headers["x-webhook-redelivery-of"] ? `redelivery ${String(req.headers["x-webhook-delivery-id"])}` : orderId;
        if (!state.firstAttempt.has(key)) state.firstAttempt.set(key, performance.now());
      }
      res.writeHead(status).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return Object.assign(state, { close: () => server.close() });
}

// Fixtures, through the domain functions and request schemas the API uses.
const organization = await createOrganization({ name: `Bench ${Date.now()}`, currency: "SEK" });
const user = await createUser({ organizationId: organization.id, email: "bench@example.test", password: "bench-password-123" });
const userToken = await issueUserToken({ userId: user.id, organizationId: organization.id, sessionVersion: user.sessionVersion }, 86_400);
const { key: apiKey } = await createApiKey({ organizationId: organization.id, name: "bench", scopes: ["*"], rateLimitPerMinute: 1_000_000 });
const venue = await benchVenue(organization.id, "Bench hall");
const event = await benchEvent(organization.id, venue.id, "Bench concert");
const ticket = await benchTicketType(organization.id, event.id, "Standard", 25_000);
const healthyReceiver = await receiver(204);
const deadReceiver = await receiver(500);
const healthy = await createIntegration({ organizationId: organization.id, url: healthyReceiver.url });
const dead = await createIntegration({ organizationId: organization.id, url: deadReceiver.url });
const healthyId = fromPublicId("integration", healthy.id)!;
// Integrations of the same healthy receiver that get the deliveries/s backlog between them; they subscribe to no event.
const BULK_INTEGRATIONS = 4;
const bulk = await Promise.all(
  Array.from({ length: BULK_INTEGRATIONS }, async () => {
    const integration = await createIntegration({ organizationId: organization.id, url: healthyReceiver.url, events: ["OrderRefunded"] });
    return { id: integration.id, uuid: fromPublicId("integration", integration.id)! };
  }),
);
const deadId = fromPublicId("integration", dead.id)!;
const setEnabled = (integrationId: string, enabled: boolean) =>
  sql`update webhook_integrations set enabled = ${enabled}, updated_at = now() where id = ${integrationId}`;
await setEnabled(healthyId, false);
await setEnabled(deadId, false);

const app = await bench.start();
const { baseUrl, serverProcesses, process: server } = app;
log(`npm start ready with ${serverProcesses} server processes`);

const orderBody = (n: number) =>
  JSON.stringify({
    event_id: event.id,
    customer: { email: `buyer${n}@example.test`, name: `Buyer ${n}` },
    items: [{ ticket_id: ticket.id, quantity: 1 }],
  });
const authorization = { Authorization: `Bearer ${apiKey}` };

/** POSTs `count` orders at CONCURRENCY callers; returns orders/s and when each order's 201 arrived, by order id. */
async function postOrders(count: number): Promise<{ perSecond: number; committedAt: Map<string, number> }> {
  const committedAt = new Map<string, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const response = await request(`${baseUrl}/v1/orders`, {
          method: "POST",
          headers: { ...authorization, "Content-Type": "application/json" },
          body: orderBody(next++),
        });
        const body = JSON.parse(response.body.toString("utf8")) as { id?: string };
        if (response.status !== 201) throw new Error(`POST /v1/orders → ${response.status} ${JSON.stringify(body)}`);
        committedAt.set(fromPublicId("order", body.id!)!, performance.now());
      }
    }),
  );
  return { perSecond: round((count / (performance.now() - started)) * 1000, 1), committedAt };
}

/** The order statements of lib/orders/create-order.ts as raw SQL through postgres.js (rawOrder), at CONCURRENCY callers. */
async function rawSqlOrders(count: number): Promise<number> {
  const eventId = fromPublicId("event", event.id)!;
  const ticketId = fromPublicId("ticketType", ticket.id)!;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const n = next++;
        if (!(await rawOrder(sql, { organizationId: organization.id, eventId, ticketTypeId: ticketId }, `raw${n}@example.test`))) {
          throw new Error("raw SQL order: sold out");
        }
      }
    }),
  );
  return round((count / (performance.now() - started)) * 1000, 1);
}

/** GET /v1/orders at concurrency 1 for PROBE_MS: p50 in ms. */
async function probeListP50(): Promise<number> {
  const latencies: number[] = [];
  const until = performance.now() + PROBE_MS;
  while (performance.now() < until) {
    const started = performance.now();
    await keepAliveGet(`${baseUrl}/v1/orders?limit=20`, authorization);
    latencies.push(performance.now() - started);
  }
  return round(percentile(latencies.sort((a, b) => a - b), 50), 1);
}

async function waitFor(receiver: Receiver, keys: Iterable<string>, timeoutMs: number): Promise<number> {
  const wanted = [...keys];
  const deadline = performance.now() + timeoutMs;
  while (wanted.some((key) => !receiver.firstAttempt.has(key)) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return performance.now();
}

/** Commit → first attempt at `receiver` for each committed order, p50 and p99 (ms); orders never attempted count as missing. */
function lag(receiver: Receiver, committedAt: Map<string, number>) {
  const lags = [...committedAt].map(([id, at]) => (receiver.firstAttempt.get(id) ?? NaN) - at).filter(Number.isFinite).sort((a, b) => a - b);
  return { p50_ms: round(percentile(lags, 50), 1), p99_ms: round(percentile(lags, 99), 1), missing: committedAt.size - lags.length };
}

/**
 * Queues `count` redeliveries at once (bulk recovery), spread over the bulk integrations (each runs at most its declared
 * number of deliveries at a time), and times them to the last first attempt at the healthy receiver. Also the delivery
 * worker's CPU time per delivery meanwhile (user + system, ms): what one delivery costs whatever the machine's load.
 */
async function deliveriesPerSecond(count: number): Promise<{ perSecond: number; workerCpuMs: number }> {
  const since = new Date(Date.now() - 1000);
  const each = Math.ceil(count / bulk.length);
  for (const integration of bulk) {
    await sql`
      insert into webhook_deliveries (organization_id, integration_id, event_type, payload, status, attempt_count, created_at)
      select ${organization.id}, ${integration.uuid}, 'OrderCompleted', payload, 'PermanentlyFailed', 5, now()
      from (select payload from webhook_deliveries where integration_id = ${healthyId} limit 1) sample, generate_series(1, ${each})`;
  }
  const before = healthyReceiver.firstAttempt.size;
  const worker = deliveryWorkerPid(server.pid!);
  const cpuBefore = cpuMs(worker);
  const started = performance.now();
  for (const integration of bulk) {
    const response = await fetch(`${baseUrl}/webhooks/integrations/${integration.id}/recover`, {
      method: "POST",
      headers: { Authorization: `Bearer ${userToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ since: since.toISOString() }),
    });
    const { queued } = (await response.json()) as { queued: number };
    if (response.status !== 200 || queued !== each) throw new Error(`recover → ${response.status}, queued ${queued}`);
  }
  const total = each * bulk.length;
  const deadline = performance.now() + 300_000;
  while (healthyReceiver.firstAttempt.size < before + total && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  const delivered = healthyReceiver.firstAttempt.size - before;
  return {
    perSecond: round((delivered / (performance.now() - started)) * 1000, 1),
    workerCpuMs: round((cpuMs(worker) - cpuBefore) / delivered, 2),
  };
}

/**
 * The CPU time (ms) each process of the measurement has used so far (see OrderCpu). PostgreSQL's are the sessions of
 * `npm start`'s processes (application_name, see db/client.ts): they stay open, while the raw SQL reference's close
 * when idle and would take their time out of a sum; background work (autovacuum, checkpoints) is not counted.
 */
async function cpuNow(): Promise<OrderCpu> {
  const postgres = await sessionsCpuMs(sql, APP_SESSIONS);
  const usage = process.cpuUsage();
  return { ...npmStartCpuMs(server.pid!), postgres, bench: (usage.user + usage.system) / 1000 };
}

/**
 * Waits (at most 30 s) until the delivery worker has used under 5 % of a core for half a second: the previous phase's
 * deliveries and retries are done, so the next phase's CPU and orders/s are its own.
 */
async function deliveryWorkerIdle(): Promise<void> {
  const worker = deliveryWorkerPid(server.pid!);
  const deadline = performance.now() + 30_000;
  for (;;) {
    const before = cpuMs(worker);
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (cpuMs(worker) - before < 25 || performance.now() > deadline) return;
  }
}

/** Every orders phase of a round once, unmeasured, `count` orders each: see WARMUP. */
async function warmUp(count: number): Promise<void> {
  log(`warm-up: ${count} orders without an integration, ${count} as raw SQL, ${count} with the healthy integration`);
  await postOrders(count);
  await rawSqlOrders(count);
  await setEnabled(healthyId, true);
  const { committedAt } = await postOrders(count);
  await waitFor(healthyReceiver, committedAt.keys(), 120_000);
  await setEnabled(healthyId, false);
}

function cpuPerOrder(before: OrderCpu, after: OrderCpu, orders: number): OrderCpu {
  const per = (name: keyof OrderCpu) => round((after[name] - before[name]) / orders, 2);
  return { web: per("web"), delivery_worker: per("delivery_worker"), postgres: per("postgres"), bench: per("bench") };
}

const rounds: WebhookRound[] = [];
try {
  if (WARMUP > 0) await warmUp(WARMUP);
  for (let r = 1; r <= ROUNDS; r++) {
    log(`round ${r}: orders without an integration`);
    await deliveryWorkerIdle();
    const cpuBeforeBare = await cpuNow();
    const bare = await postOrders(ORDERS);
    const bareCpu = cpuPerOrder(cpuBeforeBare, await cpuNow(), ORDERS);
    log(`round ${r}: raw SQL`);
    const rawSql = await rawSqlOrders(ORDERS);
    log(`round ${r}: orders with a healthy integration`);
    await setEnabled(healthyId, true);
    await deliveryWorkerIdle();
    const cpuBeforeHealthy = await cpuNow();
    const withHealthy = await postOrders(ORDERS);
    const deliveredAt = await waitFor(healthyReceiver, withHealthy.committedAt.keys(), 120_000);
    const healthyCpu = cpuPerOrder(cpuBeforeHealthy, await cpuNow(), ORDERS);
    const healthyLag = lag(healthyReceiver, withHealthy.committedAt);
    log(`round ${r}: deliveries/s`);
    const deliveries = await deliveriesPerSecond(BACKLOG);
    log(`round ${r}: a dead receiver beside the healthy one`);
    const apiBefore = await probeListP50();
    await setEnabled(deadId, true);
    const besideDead = await postOrders(ORDERS);
    // At once, while the dead receiver's deliveries are being retried.
    const deadRequestsBefore = deadReceiver.requests;
    const apiDuring = await probeListP50();
    const deadRequestsDuringProbe = deadReceiver.requests - deadRequestsBefore;
    await waitFor(healthyReceiver, besideDead.committedAt.keys(), 120_000);
    const deadLag = lag(deadReceiver, besideDead.committedAt);
    await setEnabled(deadId, false);
    await setEnabled(healthyId, false);
    const round_: WebhookRound = {
      orders_per_second: { no_integration: bare.perSecond, healthy_integration: withHealthy.perSecond, raw_sql: rawSql, beside_dead_receiver: besideDead.perSecond },
      cpu_ms_per_order: { no_integration: bareCpu, healthy_integration: healthyCpu },
      commit_to_first_attempt: healthyLag,
      delivered_all_after_ms: round(deliveredAt - Math.min(...withHealthy.committedAt.values()), 0),
      deliveries_per_second: deliveries.perSecond,
      delivery_worker_cpu_ms_per_delivery: deliveries.workerCpuMs,
      dead_receiver: {
        api_list_p50_before_ms: apiBefore,
        api_list_p50_during_ms: apiDuring,
        healthy_commit_to_first_attempt: lag(healthyReceiver, besideDead.committedAt),
        dead_commit_to_first_attempt: deadLag,
        dead_requests_during_probe: deadRequestsDuringProbe,
      },
    };
    log(JSON.stringify(round_));
    rounds.push(round_);
  }
} finally {
  await bench.cleanUp();
  await sql.end({ timeout: 5 });
  healthyReceiver.close();
  deadReceiver.close();
}

const result: WebhookBench = {
  measured_at: new Date().toISOString(),
  server_processes: serverProcesses,
  orders_per_round: ORDERS,
  warmup_orders_per_phase: WARMUP,
  concurrency: CONCURRENCY,
  backlog: BACKLOG,
  load_average: os.loadavg().map((n) => round(n, 2)),
  rounds,
};
saveResults("webhook_delivery", result);
saveMarkdownSection("webhook-delivery", webhookDeliveryMarkdown(result));
console.log(JSON.stringify(result, null, 2));
console.log(["", "Targets of issue 18 (medians over the rounds):", ...webhookVerdicts(result)].join("\n"));
process.exit(0);
