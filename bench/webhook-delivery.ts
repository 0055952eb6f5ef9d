/**
 * Webhook delivery benchmark: completes orders through the real order path (createOrder → outbox →
 * announcement → in-process Inngest driver) and measures, with a local receiver on 127.0.0.1, the latency
 * from order completion (createOrder returned) to the first attempt arriving, and delivery throughput.
 *
 *   npx tsx --conditions=react-server bench/webhook-delivery.ts [--orders 500] [--concurrency 8] [--rate 0] [--dead-receiver]
 *
 * Without --rate, orders are completed as fast as `concurrency` callers can (saturation: shows delivery
 * throughput, and on the single-connection embedded database the backlog in the latency). With
 * --rate N, N orders per second are started on a fixed schedule (latency under a steady load).
 * With --dead-receiver, a second integration subscribes a receiver that accepts connections and never
 * answers: every order also queues a delivery behind it, and the figures are the healthy receiver's.
 *
 * Uses PostgreSQL when DATABASE_URL is set (a fresh schema is migrated into it), otherwise in-memory PGlite.
 * Results are merged into bench/results.json under "webhook_delivery", one entry per driver and mode.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import os from "node:os";
import { benchVenue } from "./support/catalog";
import { readResults, saveMarkdownSection, saveResults } from "./support/results";
import { percentile, round as roundTo } from "./support/stats";
import { webhookDeliveryMarkdown, type WebhookRun } from "./support/webhook-report";

// Before any app module reads the environment: the receiver is local, and the bench needs no Inngest keys.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
process.env.LOG_LEVEL ??= "warn";
delete process.env.INNGEST_EVENT_KEY;
delete process.env.INNGEST_SIGNING_KEY;

const { values } = parseArgs({
  options: {
    orders: { type: "string", default: "500" },
    concurrency: { type: "string", default: "8" },
    rate: { type: "string", default: "0" },
    "dead-receiver": { type: "boolean", default: false },
  },
});
const DEAD_RECEIVER = values["dead-receiver"];
const ORDERS = Number(values.orders);
const CONCURRENCY = Number(values.concurrency);
const RATE = Number(values.rate);

const { openDatabase, setDatabaseHandle } = await import("@/db/client");
const { runMigrations } = await import("@/db/migrator");
const { webhookDeliveries } = await import("@/db/schema");
const { createOrganization } = await import("@/lib/organizations/organizations");
const { createEvent } = await import("@/lib/catalog/events");
const { createTicketType } = await import("@/lib/catalog/ticket-types");
const { createOrder } = await import("@/lib/orders/create-order");
const { createOrderBodySchema } = await import("@/lib/orders/order-schemas");
const { createEventSchema } = await import("@/lib/catalog/event-schemas");
const { createTicketTypeSchema } = await import("@/lib/catalog/ticket-type-schemas");
const { createIntegration } = await import("@/lib/webhooks/integrations");
const { fromPublicId, toPublicId } = await import("@/lib/ids");
const { and, eq } = await import("drizzle-orm");

const round = (n: number) => roundTo(n, 1);

const handle = openDatabase({ url: process.env.DATABASE_URL, pgliteDir: "memory://" });
await runMigrations(handle);
setDatabaseHandle(handle);

// The receiver notes when each delivery's first attempt arrived.
const firstAttemptAt = new Map<string, number>();
let received = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    received++;
    const id = String(req.headers["x-webhook-delivery-id"]);
    if (req.headers["x-webhook-attempt"] === "1" && !firstAttemptAt.has(id)) firstAttemptAt.set(id, performance.now());
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const organization = await createOrganization({ name: `Bench ${Date.now()}`, currency: "SEK" });
const healthy = await createIntegration({ organizationId: organization.id, url: receiverUrl });
// Never answers: each attempt holds its run for the whole 30 s attempt timeout.
const dead = http.createServer(() => {});
if (DEAD_RECEIVER) {
  await new Promise<void>((resolve) => dead.listen(0, "127.0.0.1", resolve));
  await createIntegration({ organizationId: organization.id, url: `http://127.0.0.1:${(dead.address() as AddressInfo).port}/hooks` });
}
// Inputs go through the request schemas, exactly as the API hands them to the domain functions.
const venue = await benchVenue(organization.id, "Bench hall");
const now = Date.now();
const event = await createEvent(
  organization.id,
  createEventSchema.parse({
    name: "Bench concert",
    starts_at: new Date(now + 30 * 86_400_000).toISOString(),
    ends_at: new Date(now + 30 * 86_400_000 + 3 * 3_600_000).toISOString(),
    venue_id: venue.id,
    status: "published",
  }),
);
const ticket = await createTicketType(
  organization.id,
  event.id,
  createTicketTypeSchema.parse({
    name: "Standard",
    price: 25_000,
    quantity_total: 1_000_000,
    sale_starts_at: new Date(now - 3_600_000).toISOString(),
    sale_ends_at: new Date(now + 29 * 86_400_000).toISOString(),
  }),
);

const completedAt = new Map<string, number>(); // order uuid → when createOrder returned
const started = performance.now();
async function completeOne(n: number) {
  const order = await createOrder(
    organization.id,
    createOrderBodySchema.parse({
      event_id: event.id,
      customer: { email: `buyer${n}@example.test`, name: `Buyer ${n}` },
      items: [{ ticket_id: ticket.id, quantity: 1 }],
    }),
  );
  completedAt.set(fromPublicId("order", order.id)!, performance.now());
}
if (RATE > 0) {
  const pending: Promise<void>[] = [];
  for (let n = 0; n < ORDERS; n++) {
    const due = started + (n * 1000) / RATE;
    if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
    pending.push(completeOne(n));
  }
  await Promise.all(pending);
} else {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < ORDERS) await completeOne(next++);
    }),
  );
}
const ordersDone = performance.now();

const deadline = Date.now() + 600_000;
while (firstAttemptAt.size < ORDERS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
const deliveredDone = performance.now();

const rows = await handle.db
  .select({ id: webhookDeliveries.id, orderId: webhookDeliveries.orderId, status: webhookDeliveries.status })
  .from(webhookDeliveries)
  .where(and(eq(webhookDeliveries.organizationId, organization.id), eq(webhookDeliveries.integrationId, fromPublicId("integration", healthy.id)!)));
const latencies = rows
  .map((row) => (firstAttemptAt.get(toPublicId("delivery", row.id)) ?? NaN) - (completedAt.get(row.orderId!) ?? NaN))
  .filter((ms) => Number.isFinite(ms))
  .sort((a, b) => a - b);

const result = {
  measured_at: new Date().toISOString(),
  driver: handle.driver,
  orders: ORDERS,
  mode: RATE > 0 ? `paced at ${RATE} orders/s` : `saturating with ${CONCURRENCY} concurrent order callers`,
  dead_receiver_beside: DEAD_RECEIVER,
  deliveries: rows.length,
  first_attempts_received: firstAttemptAt.size,
  requests_received: received,
  orders_per_second: round(ORDERS / ((ordersDone - started) / 1000)),
  deliveries_per_second: round(firstAttemptAt.size / ((deliveredDone - started) / 1000)),
  completion_to_first_attempt_ms: {
    p50: round(percentile(latencies, 50)),
    p95: round(percentile(latencies, 95)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? NaN),
  },
};

const previous = (readResults().webhook_delivery ?? {}) as Record<string, unknown>;
const key = `${handle.driver}_${RATE > 0 ? "paced" : "saturated"}${DEAD_RECEIVER ? "_beside_dead_receiver" : ""}`;
const runs = { ...previous, [key]: result };
saveResults("webhook_delivery", runs);
saveMarkdownSection("webhook-delivery", webhookDeliveryMarkdown(runs as Record<string, WebhookRun>, os.loadavg().map((n) => n.toFixed(2)).join(", ")));
console.log(JSON.stringify(result, null, 2));

receiver.close();
dead.close();
await handle.close();
process.exit(firstAttemptAt.size === ORDERS ? 0 : 1);
