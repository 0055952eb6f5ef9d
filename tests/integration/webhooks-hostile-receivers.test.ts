import { describe, expect, it } from "vitest";
import { fromPublicId } from "@/lib/ids";
import { attemptDelivery, MAX_ATTEMPTS } from "@/lib/webhooks/attempt";
import { createIntegration } from "@/lib/webhooks/integrations";
import { RESPONSE_BODY_LIMIT, sendWebhook } from "@/lib/webhooks/send";
import { checkTarget } from "@/lib/webhooks/target";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";
import { endlessBody, resetBeforeAnswer, resetMidBody, selfSignedCertificate, trickleBody } from "../support/hostile-receivers";
import { retainedGrowth } from "../support/memory";
import { useReceivers, type ReceiverOptions, type Script } from "../support/receiver";
import { attemptRows, completeOrder, deliveryRow, insertDelivery, waitForStatus } from "../support/webhooks";
import { DELIVERY_RUNS_PER_INTEGRATION } from "@/inngest/functions/deliver-webhook";
import { announceDeliveries } from "@/lib/webhooks/outbox";

// A smaller bound than the production 30 s keeps the file fast; the code path is the same.
const BOUND_MS = 1_500;
const OPTIONS = { connectTimeoutMs: 1_000, totalTimeoutMs: BOUND_MS };
// Timers fire late on a busy machine; an attempt may overrun its bound by this much, no more.
const SLACK_MS = 500;
// What "promptly" means for a healthy receiver next to hostile ones.
const PROMPT_MS = 2_000;
const MB = 1024 * 1024;

interface HostileCase {
  name: string;
  script: Script;
  options?: () => ReceiverOptions;
  /** The receiver keeps the attempt open until the bound (the others fail at once). */
  holds: boolean;
  statusCode: number | null;
  error: RegExp;
  body?: (body: string | null) => void;
}

const endless = endlessBody();

const CASES: HostileCase[] = [
  { name: "slow headers (accepts, never answers)", script: () => "hang", holds: true, statusCode: null, error: /timed out/i },
  {
    name: "slow body (headers, then a byte every 50 ms)",
    script: () => trickleBody(50),
    holds: true,
    statusCode: 200,
    error: /timed out/i,
    body: (body) => expect(body).toMatch(/^\.+$/),
  },
  {
    name: "endless body",
    script: () => endless.respond,
    holds: true,
    statusCode: 200,
    error: /timed out/i,
    body: (body) => expect(body).toBe("x".repeat(RESPONSE_BODY_LIMIT)),
  },
  { name: "reset before answering (RST)", script: () => resetBeforeAnswer, holds: false, statusCode: null, error: /ECONNRESET/ },
  {
    name: "reset in the middle of the body (RST)",
    script: () => resetMidBody,
    holds: false,
    statusCode: 200,
    error: /ECONNRESET|aborted/,
    body: (body) => expect(body).toBe("partial"),
  },
  {
    name: "invalid TLS (self-signed certificate)",
    script: () => ({ status: 200 }),
    options: () => ({ tls: selfSignedCertificate() }),
    holds: false,
    statusCode: null,
    error: /self[- ]signed certificate/i,
  },
  {
    name: "redirect loop (302 to itself)",
    script: () => ({ status: 302, headers: { Location: "/hooks" } }),
    holds: false,
    statusCode: 302,
    error: /redirect \(HTTP 302\) not followed/i,
  },
];

describe("hostile webhook receivers", () => {
  useTestDatabase();
  const receiver = useReceivers();

  async function waitUntil(condition: () => boolean, what: string, timeoutMs = PROMPT_MS) {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) expect.fail(`${what} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it.each(CASES)("$name: one failed attempt within the bound, recorded, while a healthy delivery goes through", async (c) => {
    const { organization } = await createTenant();
    const hostile = await receiver(c.script, c.options?.());
    const healthy = await receiver(() => ({ status: 200, body: "ok" }));
    const hostileDelivery = await insertDelivery(
      organization.id,
      (await createIntegration({ organizationId: organization.id, url: hostile.url })).id,
    );
    const healthyDelivery = await insertDelivery(
      organization.id,
      (await createIntegration({ organizationId: organization.id, url: healthy.url })).id,
    );

    const started = performance.now();
    let hostileSettledAt: number | undefined;
    const hostileRun = attemptDelivery(hostileDelivery.id, OPTIONS).finally(() => (hostileSettledAt = performance.now()));
    if (c.holds) await waitUntil(() => hostile.requests.length === 1, "the hostile receiver gets its request");

    const healthyStarted = performance.now();
    expect(await attemptDelivery(healthyDelivery.id)).toMatchObject({ status: "Success", attemptCount: 1 });
    expect(performance.now() - healthyStarted).toBeLessThan(PROMPT_MS);
    if (c.holds) expect(hostileSettledAt, "the hostile attempt was still in flight").toBeUndefined();

    expect(await hostileRun).toMatchObject({ status: "Failed", attemptCount: 1, done: false });
    expect(hostileSettledAt! - started).toBeLessThanOrEqual(BOUND_MS + SLACK_MS);
    const [attempt, ...more] = await attemptRows(hostileDelivery.id);
    expect(more).toEqual([]);
    expect(attempt!.durationMs).toBeLessThanOrEqual(BOUND_MS + SLACK_MS);
    if (c.holds) expect(attempt!.durationMs).toBeGreaterThanOrEqual(BOUND_MS - 50);
    expect(attempt!.statusCode).toBe(c.statusCode);
    expect(attempt!.errorMessage).toMatch(c.error);
    c.body?.(attempt!.responseBody);
    expect(await deliveryRow(hostileDelivery.id)).toMatchObject({ status: "Failed", attemptCount: 1 });
  });

  it("records a response body holding NUL characters (which PostgreSQL cannot store) with them replaced, and delivers once", async () => {
    const { organization } = await createTenant();
    const server = await receiver(() => ({ status: 200, body: "ok\u0000\u0000done" }));
    const delivery = await insertDelivery(organization.id, (await createIntegration({ organizationId: organization.id, url: server.url })).id);

    expect(await attemptDelivery(delivery.id)).toMatchObject({ status: "Success", attemptCount: 1 });
    const [attempt, ...more] = await attemptRows(delivery.id);
    expect(more).toEqual([]);
    expect(attempt!.responseBody).toBe("ok\uFFFD\uFFFDdone");
    expect(await deliveryRow(delivery.id)).toMatchObject({ status: "Success", attemptCount: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it("reads an endless body into bounded memory: the first 5000 characters kept, the rest dropped as it arrives", async () => {
    const server = await receiver(() => endless.respond);
    const target = await checkTarget(server.url);
    const sentBefore = endless.bytesSent();
    const streamed = () => endless.bytesSent() - sentBefore;
    // A set volume rather than a set time, so a busy machine streams as much as an idle one; closing the
    // receiver then ends the attempt.
    const { result, growthBytes, samples } = await retainedGrowth(async () => {
      const started = performance.now();
      const attempt = sendWebhook(target, "{}", {}, { totalTimeoutMs: 45_000 });
      await waitUntil(() => streamed() >= 128 * MB && performance.now() - started >= 1_000, "128 MB streamed", 40_000);
      await server.close();
      return attempt;
    });

    expect(result).toMatchObject({ statusCode: 200, responseBody: "x".repeat(RESPONSE_BODY_LIMIT), errorMessage: expect.stringMatching(/aborted|ECONNRESET/) });
    expect(samples).toBeGreaterThanOrEqual(3);
    // A reader keeping what it is sent would grow by about as much as was streamed between the samples.
    expect(growthBytes).toBeLessThan(32 * MB);
  });

  it("through the delivery function: a healthy delivery succeeds promptly while every hostile one is in flight", async () => {
    const { organization } = await createTenant();
    const hostile = await Promise.all(
      CASES.map(async (c) => {
        const server = await receiver(c.script, c.options?.());
        const integration = await createIntegration({ organizationId: organization.id, url: server.url });
        return { ...c, server, integrationId: fromPublicId("integration", integration.id)! };
      }),
    );
    const healthy = await receiver(() => ({ status: 204 }));
    const healthyIntegration = await createIntegration({ organizationId: organization.id, url: healthy.url });

    // completeOrder announces the deliveries: the in-process driver runs deliver-webhook with the production bounds.
    const started = performance.now();
    const { deliveryIds } = await completeOrder(organization.id);
    const rows = await Promise.all(deliveryIds.map(deliveryRow));
    const deliveryOf = (integrationId: string) => rows.find((r) => r.integrationId === integrationId)!.id;
    expect(rows).toHaveLength(CASES.length + 1);

    await waitForStatus(deliveryOf(fromPublicId("integration", healthyIntegration.id)!), ["Success"], PROMPT_MS);
    expect(performance.now() - started).toBeLessThan(PROMPT_MS);
    expect(healthy.requests).toHaveLength(1);

    const holding = hostile.filter((h) => h.holds);
    const failingFast = hostile.filter((h) => !h.holds);
    for (const h of holding) {
      // Still on the first attempt: production allows it 30 s.
      expect(await deliveryRow(deliveryOf(h.integrationId))).toMatchObject({ status: "InProgress", attemptCount: 0 });
      expect(h.server.requests).toHaveLength(1);
    }
    for (const h of failingFast) {
      const row = await waitForStatus(deliveryOf(h.integrationId), ["PermanentlyFailed"]);
      const attempts = await attemptRows(row.id);
      expect(attempts.map((a) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5]);
      for (const attempt of attempts) {
        expect(attempt.statusCode).toBe(h.statusCode);
        expect(attempt.errorMessage).toMatch(h.error);
      }
    }

    // A receiver that goes away ends the attempt it was holding; the retries then find nothing listening.
    await Promise.all(holding.map((h) => h.server.close()));
    for (const h of holding) {
      const row = await waitForStatus(deliveryOf(h.integrationId), ["PermanentlyFailed"], 10_000);
      const [first, ...retries] = await attemptRows(row.id);
      expect(first!.statusCode).toBe(h.statusCode);
      expect(first!.errorMessage).toMatch(/socket hang up|aborted|ECONNRESET/i);
      h.body?.(first!.responseBody);
      expect(retries).toHaveLength(MAX_ATTEMPTS - 1);
      for (const retry of retries) expect(retry.errorMessage).toMatch(/ECONNREFUSED/);
    }
  });

  it("one integration keeps pace with an order rush: a slow receiver gets 32 attempts at once, not 8", async () => {
    const { organization } = await createTenant();
    let inFlight = 0;
    let mostInFlight = 0;
    const slow = await receiver(() => (res) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(204).end();
      }, 400);
    });
    const integration = await createIntegration({ organizationId: organization.id, url: slow.url });
    const rush = await Promise.all(Array.from({ length: 64 }, () => insertDelivery(organization.id, integration.id)));
    await announceDeliveries(rush.map((row) => row.id));
    for (const row of rush) await waitForStatus(row.id, ["Success"], 10_000);
    expect(mostInFlight).toBe(32);
  });

  it("a dead receiver with more deliveries than the driver runs at once holds only its share of runs", async () => {
    const { organization } = await createTenant();
    const dead = await receiver(() => "hang");
    const deadIntegration = await createIntegration({ organizationId: organization.id, url: dead.url });
    const backlog = await Promise.all(Array.from({ length: 70 }, () => insertDelivery(organization.id, deadIntegration.id)));
    await announceDeliveries(backlog.map((row) => row.id));
    await waitUntil(() => dead.requests.length === DELIVERY_RUNS_PER_INTEGRATION, "the dead receiver holds its share");

    const healthy = await receiver(() => ({ status: 204 }));
    const healthyIntegration = await createIntegration({ organizationId: organization.id, url: healthy.url });
    const started = performance.now();
    const { deliveryIds } = await completeOrder(organization.id);
    const rows = await Promise.all(deliveryIds.map(deliveryRow));
    const healthyDelivery = rows.find((row) => row.integrationId === fromPublicId("integration", healthyIntegration.id))!;
    await waitForStatus(healthyDelivery.id, ["Success"], PROMPT_MS);
    expect(performance.now() - started).toBeLessThan(PROMPT_MS);
    expect(dead.requests).toHaveLength(DELIVERY_RUNS_PER_INTEGRATION);

    // Once the receiver is gone its backlog fails fast (connection refused) and drains.
    await dead.close();
    const deadDelivery = rows.find((row) => row.id !== healthyDelivery.id)!;
    for (const row of [...backlog, deadDelivery]) await waitForStatus(row.id, ["PermanentlyFailed"], 30_000);
  });

  it("dead receivers holding every run the driver allows in all still leave a healthy receiver delivered promptly", async () => {
    // Nine dead receivers, each with a backlog past its concurrency limit, hanging every run they are given.
    const deadOrganization = await createTenant();
    const dead = await Promise.all(
      Array.from({ length: 9 }, async () => {
        const server = await receiver(() => "hang");
        const integration = await createIntegration({ organizationId: deadOrganization.organization.id, url: server.url });
        const backlog = await Promise.all(
          Array.from({ length: DELIVERY_RUNS_PER_INTEGRATION + 2 }, () => insertDelivery(deadOrganization.organization.id, integration.id)),
        );
        return { server, backlog };
      }),
    );
    await announceDeliveries(dead.flatMap((d) => d.backlog.map((row) => row.id)));
    const held = () => dead.reduce((sum, d) => sum + d.server.requests.length, 0);
    await waitUntil(() => held() >= 64 && dead.every((d) => d.server.requests.length >= 1), "the dead receivers hold every slot");

    const { organization } = await createTenant();
    const healthy = await receiver(() => ({ status: 204 }));
    await createIntegration({ organizationId: organization.id, url: healthy.url });
    const started = performance.now();
    const { deliveryIds } = await completeOrder(organization.id);
    await waitForStatus(deliveryIds[0]!, ["Success"], PROMPT_MS);
    expect(performance.now() - started).toBeLessThan(PROMPT_MS);
    expect(healthy.requests).toHaveLength(1);
    for (const d of dead) expect(d.server.requests.length).toBeLessThanOrEqual(DELIVERY_RUNS_PER_INTEGRATION);

    await Promise.all(dead.map((d) => d.server.close()));
    for (const row of dead.flatMap((d) => d.backlog)) await waitForStatus(row.id, ["PermanentlyFailed"], 30_000);
  });
});

