import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { orders, webhookAttempts, webhookDeliveries } from "@/db/schema";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { createIntegration, updateIntegration } from "@/lib/webhooks/integrations";
import { useAppProcesses, type AppProcess } from "../support/app-process";
import { burst } from "../support/burst";
import { usePostgresDatabasePerTest } from "../support/database";
import { createTenant } from "../support/fixtures";
import { insertCatalog, oneTicketOrderBody } from "../support/order-fixtures";
import { useReceivers, type ReceivedRequest, type Respond } from "../support/receiver";

const ORDERS = 60;
const CONCURRENCY = 8;
const KILL_AFTER_CREATED = 20;
// Deliveries whose first request is never answered, so they are certainly InProgress when the process dies.
const HELD_DELIVERIES = 4;
const SETTLE_TIMEOUT_MS = 60_000;
const FINISHED = ["Success", "PermanentlyFailed"];

const deliveryIdOf = (request: ReceivedRequest) => String(request.headers["x-webhook-delivery-id"]);

async function deliveriesOf(organizationId: string) {
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.organizationId, organizationId));
}

async function postOrder(app: AppProcess, apiKey: string, body: unknown): Promise<{ status: number; id?: string }> {
  try {
    const response = await fetch(`${app.url}/v1/orders`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const json = (await response.json()) as { id?: string };
    return { status: response.status, id: json.id };
  } catch {
    // The connection was cut by the kill: the order may or may not have committed.
    return { status: 0 };
  }
}

describe("crash safety: SIGKILL during a burst of orders with webhooks", () => {
  const database = usePostgresDatabasePerTest();
  const apps = useAppProcesses();
  const receiver = useReceivers();

  it("keeps one delivery per integration for every committed order and delivers each after a restart", async () => {
    const tenant = await createTenant();
    const organizationId = tenant.organization.id;
    const catalog = await insertCatalog(organizationId, { tickets: [{ quantityTotal: 10_000 }] });

    // First request of a delivery: held forever (the first few), failed with 500, slow, or answered at once.
    // Every later request of the same delivery id succeeds, so after the crash everything can finish.
    const firstSeen = new Set<string>();
    const hook = await receiver((_index, request) => {
      const id = deliveryIdOf(request);
      if (firstSeen.has(id)) return { status: 200 };
      firstSeen.add(id);
      const n = firstSeen.size - 1;
      if (n < HELD_DELIVERIES) return "hang";
      if (n % 3 === 0) return { status: 500 };
      return { status: 200, delayMs: n % 3 === 1 ? 300 : 0 };
    });
    const subscribed = [
      await createIntegration({ organizationId, url: hook.url }),
      await createIntegration({ organizationId, url: hook.url, signed: false }),
    ];
    const disabled = await createIntegration({ organizationId, url: hook.url });
    await updateIntegration(organizationId, disabled.id, { enabled: false });
    const subscribedIds = subscribed.map((i) => fromPublicId("integration", i.id)!).sort();

    const first = await apps.start({ databaseUrl: database.url() });
    let created = 0;
    let killed: Promise<void> | undefined;
    const answers = await burst(
      ORDERS,
      CONCURRENCY,
      async () => {
        const answer = await postOrder(first, tenant.apiKey, oneTicketOrderBody(catalog));
        // Mid-burst, once the held deliveries have reached the receiver (so they are surely InProgress).
        if (answer.status === 201 && ++created >= KILL_AFTER_CREATED && firstSeen.size >= HELD_DELIVERIES) killed ??= first.kill();
        return answer;
      },
      () => killed !== undefined,
    );
    expect(killed, "the burst ended before the kill").toBeDefined();
    await killed;
    expect(answers.length, "the kill cut the burst short").toBeLessThan(ORDERS);
    expect(answers.filter((a) => a.status !== 201 && a.status !== 0)).toEqual([]);

    // What the crash left: every order that answered 201 committed, and every committed order (answered
    // or not) has exactly one delivery per subscribed enabled integration, written in its transaction.
    const committed = await db.select({ id: orders.id }).from(orders).where(eq(orders.organizationId, organizationId));
    const committedIds = committed.map((o) => o.id);
    const acknowledged = answers.filter((a) => a.status === 201).map((a) => fromPublicId("order", a.id!)!);
    expect(committedIds).toEqual(expect.arrayContaining(acknowledged));
    const atCrash = await deliveriesOf(organizationId);
    expect(atCrash).toHaveLength(committedIds.length * subscribedIds.length);
    for (const orderId of committedIds) {
      const integrationIds = atCrash.filter((d) => d.orderId === orderId).map((d) => d.integrationId).sort();
      expect(integrationIds, `deliveries of order ${orderId}`).toEqual(subscribedIds);
    }
    const inProgress = atCrash.filter((d) => d.status === "InProgress").length;
    expect(inProgress, "deliveries in flight when the process died").toBeGreaterThanOrEqual(1);

    // A new process on the same database finishes everything without waiting for the stale-delivery sweep.
    await apps.start({ databaseUrl: database.url() });
    const unfinished = async () => (await deliveriesOf(organizationId)).filter((d) => !FINISHED.includes(d.status)).length;
    await expect.poll(unfinished, { timeout: SETTLE_TIMEOUT_MS, interval: 250 }).toBe(0);

    const settled = await deliveriesOf(organizationId);
    expect(settled.map((d) => d.status)).toEqual(settled.map(() => "Success"));
    // At least once, under the one id each delivery has: the receiver saw exactly the deliveries in the
    // database (repeats of an id whose answer the crash cut off are allowed), and nothing else.
    const publicIds = settled.map((d) => toPublicId("delivery", d.id)).sort();
    expect([...new Set(hook.requests.map(deliveryIdOf))].sort()).toEqual(publicIds);
    // Resumed deliveries continued from their recorded attempt count: attempts 1..n, the last one a 2xx.
    const attempts = await db.select().from(webhookAttempts).orderBy(asc(webhookAttempts.attemptNumber));
    for (const delivery of settled) {
      const own = attempts.filter((a) => a.deliveryId === delivery.id);
      expect(own.map((a) => a.attemptNumber)).toEqual(Array.from({ length: delivery.attemptCount }, (_, i) => i + 1));
      expect(own.at(-1)?.statusCode).toBe(200);
    }
  });

  it("a starting instance takes over only the deliveries of dead instances, never those a live one is making", async () => {
    const tenant = await createTenant();
    const organizationId = tenant.organization.id;
    const catalog = await insertCatalog(organizationId);
    // First requests wait for the test's go (each delivery is then InProgress at its sender); repeats pass.
    let release!: () => void;
    const go = new Promise<void>((resolve) => (release = resolve));
    const held: Respond = (res) =>
      void go.then(() => {
        if (!res.destroyed) res.writeHead(200).end("ok");
      });
    const firstSeen = new Set<string>();
    const hook = await receiver((_index, request) => {
      const id = deliveryIdOf(request);
      if (firstSeen.has(id)) return { status: 200 };
      firstSeen.add(id);
      return held;
    });
    await createIntegration({ organizationId, url: hook.url });
    const requestsFor = (deliveryId: string) => hook.requests.filter((r) => deliveryIdOf(r) === toPublicId("delivery", deliveryId)).length;
    const row = async (deliveryId: string) => (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)))[0]!;

    /** Places an order through `app` and waits until its delivery's first request is held at the receiver. */
    async function orderHeldAt(app: AppProcess): Promise<string> {
      const answer = await postOrder(app, tenant.apiKey, oneTicketOrderBody(catalog));
      expect(answer.status).toBe(201);
      const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.orderId, fromPublicId("order", answer.id!)!));
      await expect.poll(() => requestsFor(delivery!.id), { timeout: 10_000 }).toBe(1);
      expect((await row(delivery!.id)).status).toBe("InProgress");
      return delivery!.id;
    }

    const a = await apps.start({ databaseUrl: database.url() });
    const fromA = await orderHeldAt(a);
    // B's start-up resume runs before it answers /api/health; A is alive, so its delivery is not B's to take.
    const b = await apps.start({ databaseUrl: database.url() });
    const fromB = await orderHeldAt(b);
    expect(requestsFor(fromA)).toBe(1);
    expect((await row(fromA)).status).toBe("InProgress");

    // A dies holding its delivery; C starts and takes it over at once, but leaves B's alone.
    await a.kill();
    await apps.start({ databaseUrl: database.url() });
    await expect.poll(async () => (await row(fromA)).status, { timeout: 20_000 }).toBe("Success");
    expect(requestsFor(fromA)).toBe(2);
    expect(requestsFor(fromB)).toBe(1);
    expect((await row(fromB)).status).toBe("InProgress");

    release();
    await expect.poll(async () => (await row(fromB)).status, { timeout: 20_000 }).toBe("Success");
    expect(requestsFor(fromB)).toBe(1);
    const attempts = await db.select().from(webhookAttempts).orderBy(asc(webhookAttempts.attemptNumber));
    expect(attempts.map((x) => [x.deliveryId, x.attemptNumber, x.statusCode]).sort()).toEqual(
      [[fromA, 1, 200], [fromB, 1, 200]].sort(),
    );
  });
});
