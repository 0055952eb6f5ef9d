import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import type { InProcessDriver } from "@/inngest/driver";
import { DELIVERY_RUNS_PER_INTEGRATION, FAILING_INTEGRATION_RUNS } from "@/inngest/functions/deliver-webhook";
import { MAX_ATTEMPTS } from "@/lib/webhooks/attempt";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";
import { servedTransport, SIGNING_KEY, startEventApi } from "../support/inngest-executor";
import { useReceivers } from "../support/receiver";
import { attemptRows, deliveryRow, insertDelivery, waitForStatus } from "../support/webhooks";

/**
 * The same delivery scenarios through both engines: the embedded one (no Inngest keys), and the served
 * `/api/inngest` handler with Inngest keys, driven by signed executor requests and receiving the app's
 * events on an Inngest event API, both scheduled by the rules the functions declare. Outcomes must match.
 */
const ENGINES = ["in-process", "served"] as const;
type Engine = (typeof ENGINES)[number];
const outcomes: Record<Engine, Record<string, unknown>> = { "in-process": {}, served: {} };
const POLL = { timeout: 20_000, interval: 25 };

async function appModules() {
  return {
    ...(await import("@/inngest/driver")),
    ...(await import("@/inngest/embedded")),
    ...(await import("@/inngest/client")),
    ...(await import("@/inngest/functions")),
    ...(await import("@/lib/webhooks/integrations")),
    ...(await import("@/lib/webhooks/outbox")),
    ...(await import("@/lib/webhooks/runtime")),
    ...(await import("@/inngest/serve")),
  };
}

async function age(ids: string[]) {
  await db.update(webhookDeliveries).set({ updatedAt: new Date(Date.now() - 10 * 60_000) }).where(inArray(webhookDeliveries.id, ids));
}

async function statusCounts(ids: string[]) {
  const rows = await db.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
  return rows.reduce<Record<string, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});
}

describe.each(ENGINES)("delivery scenarios, %s engine", (engine) => {
  useTestDatabase();
  const receiver = useReceivers();
  let m: Awaited<ReturnType<typeof appModules>>;
  let driver: InProcessDriver;
  let closeEventApi = async () => {};
  // Checkpoints the served handler sent to Inngest's API: the SDK runs steps on within a call, as with Inngest Cloud.
  let checkpoints = () => 0;

  beforeAll(async () => {
    if (engine === "served") {
      const eventApi = await startEventApi((events) => driver.dispatch(events));
      closeEventApi = eventApi.close;
      checkpoints = eventApi.checkpoints;
      vi.stubEnv("INNGEST_EVENT_KEY", "test-event-key");
      vi.stubEnv("INNGEST_SIGNING_KEY", SIGNING_KEY);
      vi.stubEnv("INNGEST_BASE_URL", eventApi.url);
    }
    vi.resetModules();
    m = await appModules();
    if (engine === "served") {
      const route = m.servedFunctions();
      if (!route) throw new Error("Inngest keys did not switch the app to served mode");
      driver = new m.InProcessDriver(m.inngest, m.functions, servedTransport(route));
    } else {
      driver = m.inProcessDriver();
    }
  });

  afterAll(async () => {
    await vi.waitFor(() => expect(driver.load()).toEqual({ running: 0, waiting: 0 }), POLL);
    vi.unstubAllEnvs();
    vi.resetModules();
    await closeEventApi();
  });

  async function integration(url: string) {
    const { organization } = await createTenant();
    const created = await m.createIntegration({ organizationId: organization.id, url });
    return { organizationId: organization.id, id: created.id };
  }

  async function deliverOnce(script: Parameters<typeof receiver>[0]) {
    const server = await receiver(script);
    const { organizationId, id } = await integration(server.url);
    const delivery = await insertDelivery(organizationId, id);
    await m.announceDeliveries([delivery.id]);
    const row = await waitForStatus(delivery.id, ["Success", "PermanentlyFailed"]);
    const attempts = (await attemptRows(delivery.id)).map((a) => a.statusCode);
    return { status: row.status, attemptCount: row.attemptCount, attempts, hits: server.requests.length };
  }

  it("success", async () => {
    outcomes[engine].success = await deliverOnce(() => ({ status: 200 }));
    expect(outcomes[engine].success).toEqual({ status: "Success", attemptCount: 1, attempts: [200], hits: 1 });
    // The SDK reports the step after it ran, so the delivery's row can say Success before the checkpoint arrives.
    if (engine === "served") await vi.waitFor(() => expect(checkpoints()).toBeGreaterThan(0), POLL);
  });

  it("500 then 200", async () => {
    outcomes[engine].retried = await deliverOnce((i) => ({ status: i === 0 ? 500 : 200 }));
    expect(outcomes[engine].retried).toEqual({ status: "Success", attemptCount: 2, attempts: [500, 200], hits: 2 });
  });

  it("five failures", async () => {
    outcomes[engine].failed = await deliverOnce(() => ({ status: 500 }));
    expect(outcomes[engine].failed).toEqual({ status: "PermanentlyFailed", attemptCount: 5, attempts: Array(5).fill(500), hits: 5 });
  });

  it("a dead receiver with 200 queued deliveries beside a healthy one: the healthy one's finish first", async () => {
    const dead = await receiver(() => "hang");
    const healthy = await receiver(() => ({ status: 200 }));
    const deadIntegration = await integration(dead.url);
    const healthyIntegration = await integration(healthy.url);
    const deadIds = (await Promise.all(Array.from({ length: 200 }, () => insertDelivery(deadIntegration.organizationId, deadIntegration.id)))).map((d) => d.id);
    const healthyIds = (await Promise.all(Array.from({ length: 20 }, () => insertDelivery(healthyIntegration.organizationId, healthyIntegration.id)))).map(
      (d) => d.id,
    );
    await m.announceDeliveries(deadIds);
    await m.announceDeliveries(healthyIds);
    await expect.poll(() => statusCounts(healthyIds), POLL).toEqual({ Success: 20 });
    const deadStatusWhileHealthyFinished = await statusCounts(deadIds);
    // Its runs' requests may still be on their way; what counts is that no more than its share ever arrive.
    await expect.poll(() => dead.requests.length, POLL).toBe(DELIVERY_RUNS_PER_INTEGRATION);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const whileHealthyFinished = { deadHits: dead.requests.length, dead: deadStatusWhileHealthyFinished };
    // Pausing the dead integration ends its queued runs at their claim; closing the receiver fails the hanging attempts.
    await m.updateIntegration(deadIntegration.organizationId, deadIntegration.id, { enabled: false });
    await dead.close();
    await expect.poll(() => driver.load(), POLL).toEqual({ running: 0, waiting: 0 });
    outcomes[engine].backlog = { whileHealthyFinished, after: await statusCounts(deadIds), healthyHits: healthy.requests.length };
    expect(outcomes[engine].backlog).toEqual({
      whileHealthyFinished: {
        deadHits: DELIVERY_RUNS_PER_INTEGRATION,
        dead: { InProgress: DELIVERY_RUNS_PER_INTEGRATION, Pending: 200 - DELIVERY_RUNS_PER_INTEGRATION },
      },
      after: { Failed: DELIVERY_RUNS_PER_INTEGRATION, Pending: 200 - DELIVERY_RUNS_PER_INTEGRATION },
      healthyHits: 20,
    });
  });

  it("a failing integration's deliveries run a few at a time, until one of its attempts succeeds", async () => {
    const held: (() => void)[] = [];
    // Five failures end the first delivery; the rest of the requests wait until answered 200.
    const server = await receiver((i) => (i < MAX_ATTEMPTS ? { status: 500 } : (res) => held.push(() => res.writeHead(200).end())));
    const { organizationId, id } = await integration(server.url);
    const failingSince = async () => (await m.getIntegration(organizationId, id))?.failing_since ?? null;
    const first = await insertDelivery(organizationId, id);
    await m.announceDeliveries([first.id]);
    await waitForStatus(first.id, ["PermanentlyFailed"]);
    const markedFailing = (await failingSince()) !== null;

    const backlog = (await Promise.all(Array.from({ length: 12 }, () => insertDelivery(organizationId, id)))).map((d) => d.id);
    await m.announceDeliveries(backlog);
    await expect.poll(() => server.requests.length, POLL).toBe(MAX_ATTEMPTS + FAILING_INTEGRATION_RUNS);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const attemptsWhileFailing = server.requests.length - MAX_ATTEMPTS;

    const answering = setInterval(() => held.splice(0).forEach((answer) => answer()), 20);
    try {
      await expect.poll(() => statusCounts(backlog), POLL).toEqual({ Success: 12 });
    } finally {
      clearInterval(answering);
    }
    outcomes[engine].failing = { markedFailing, attemptsWhileFailing, failingAfterSuccess: await failingSince() };
    expect(outcomes[engine].failing).toEqual({ markedFailing: true, attemptsWhileFailing: FAILING_INTEGRATION_RUNS, failingAfterSuccess: null });
  });

  it("re-announcing a delivery whose run is alive starts no second attempt", async () => {
    const held: ((status: number) => void)[] = [];
    const server = await receiver(() => (res) => held.push((status) => res.writeHead(status).end()));
    const { organizationId, id } = await integration(server.url);
    const delivery = await insertDelivery(organizationId, id);
    await m.announceDeliveries([delivery.id]);
    await expect.poll(() => server.requests.length, POLL).toBe(1);
    // The outbox again, and the sweeper seeing the attempt as stalled: both re-announce it.
    await m.announceDeliveries([delivery.id]);
    await age([delivery.id]);
    driver.fireCron();
    await expect.poll(() => driver.load().running, POLL).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const hitsWhileRunning = server.requests.length;
    held.splice(0).forEach((answer) => answer(200));
    const row = await waitForStatus(delivery.id, ["Success"]);
    outcomes[engine].reannounced = { hitsWhileRunning, status: row.status, attemptCount: row.attemptCount, hits: server.requests.length };
    expect(outcomes[engine].reannounced).toEqual({ hitsWhileRunning: 1, status: "Success", attemptCount: 1, hits: 1 });
  });

  it("restart with deliveries InProgress: they are attempted again and finish", async () => {
    const server = await receiver(() => ({ status: 200 }));
    const { organizationId, id } = await integration(server.url);
    const deliveries = await Promise.all([0, 1, 2].map(() => insertDelivery(organizationId, id)));
    const ids = deliveries.map((d) => d.id);
    // What a killed process leaves: claimed, an attempt counted for one of them, no run alive anywhere.
    await db
      .update(webhookDeliveries)
      .set({ status: "InProgress", claimedBy: "ticketing dead-process", updatedAt: new Date(Date.now() - 10 * 60_000) })
      .where(inArray(webhookDeliveries.id, ids));
    await db.update(webhookDeliveries).set({ attemptCount: 1 }).where(eq(webhookDeliveries.id, ids[0]!));
    // Embedded: the new process resumes them at start-up. Served: Inngest's runs are gone; the sweeper finds them stale.
    if (engine === "in-process") await m.resumeUnfinishedDeliveries();
    else driver.fireCron();
    for (const d of ids) await waitForStatus(d, ["Success"]);
    outcomes[engine].restarted = {
      attemptCounts: await Promise.all(ids.map(async (d) => (await deliveryRow(d)).attemptCount)),
      hits: server.requests.length,
    };
    expect(outcomes[engine].restarted).toEqual({ attemptCounts: [2, 1, 1], hits: 3 });
  });
});

describe("both engines", () => {
  it("had identical outcomes in every scenario", () => {
    expect(Object.keys(outcomes.served)).toHaveLength(7);
    expect(outcomes.served).toEqual(outcomes["in-process"]);
  });
});
