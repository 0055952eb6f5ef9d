import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { db, rowsOf } from "@/db/client";
import { inProcessDriver } from "@/inngest/embedded";
import { webhookDeliveries } from "@/db/schema";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { attemptDelivery } from "@/lib/webhooks/attempt";
import { listAttempts } from "@/lib/webhooks/deliveries";
import { findStalledDeliveries } from "@/lib/webhooks/delivery-queue";
import { createIntegration, updateIntegration } from "@/lib/webhooks/integrations";
import { resumeUnfinishedDeliveries } from "@/lib/webhooks/runtime";
import { verifyWebhook } from "@/lib/webhooks/verify";
import { loadTransactionOrders } from "@/lib/orders/transaction-order";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";
import { selfSignedCertificate } from "../support/hostile-receivers";
import { refusingUrl, useReceivers } from "../support/receiver";
import { attemptRows, completeOrder, deliveryRow, insertDelivery, waitForStatus } from "../support/webhooks";

describe("webhook deliveries", () => {
  useTestDatabase();
  const receiver = useReceivers();

  async function integration(url: string, signed = true) {
    const { organization } = await createTenant();
    const created = await createIntegration({ organizationId: organization.id, url, signed });
    return { organizationId: organization.id, integration: created };
  }

  it("delivers the order JSON byte for byte with headers a receiver can verify", async () => {
    const server = await receiver(() => ({ status: 200, body: "ok" }));
    const { organizationId, integration: hook } = await integration(server.url);
    const { orderId, deliveryIds } = await completeOrder(organizationId);
    expect(deliveryIds).toHaveLength(1);
    const row = await waitForStatus(deliveryIds[0]!, ["Success"]);

    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.body).toBe(row.payload);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["x-webhook-delivery-id"]).toBe(toPublicId("delivery", deliveryIds[0]!));
    expect(request.headers["x-webhook-event-type"]).toBe("OrderCompleted");
    expect(request.headers["x-webhook-attempt"]).toBe("1");
    const event = verifyWebhook(request.body, request.headers, hook.signing_secret!, { toleranceSeconds: 300 });
    const [order] = await loadTransactionOrders(db, organizationId, [orderId]);
    expect(event).toEqual(JSON.parse(JSON.stringify(order)));
    expect(() => verifyWebhook(request.body, request.headers, "whsec_wrong")).toThrow(/signature/i);

    expect(row).toMatchObject({ status: "Success", attemptCount: 1, nextRetryAt: null });
    const attempts = await attemptRows(row.id);
    expect(attempts).toMatchObject([{ attemptNumber: 1, statusCode: 200, responseBody: "ok", errorMessage: null }]);
  });

  it("retries a receiver that fails twice: 3 attempts, same delivery id, fresh signatures", async () => {
    // Failing slowly (over a second) makes each attempt's timestamp, and so its signature, differ.
    const server = await receiver((n) => (n < 2 ? { status: 500, body: "boom", delayMs: 1_050 } : { status: 204 }));
    const { organizationId, integration: hook } = await integration(server.url);
    const { deliveryIds } = await completeOrder(organizationId);
    const row = await waitForStatus(deliveryIds[0]!, ["Success"]);

    expect(row.attemptCount).toBe(3);
    expect(server.requests.map((r) => r.headers["x-webhook-attempt"])).toEqual(["1", "2", "3"]);
    expect(new Set(server.requests.map((r) => r.headers["x-webhook-delivery-id"])).size).toBe(1);
    expect(new Set(server.requests.map((r) => r.headers["x-webhook-timestamp"])).size).toBe(3);
    expect(new Set(server.requests.map((r) => r.headers["x-webhook-signature"])).size).toBe(3);
    for (const request of server.requests) {
      expect(request.body).toBe(row.payload);
      expect(() => verifyWebhook(request.body, request.headers, hook.signing_secret!)).not.toThrow();
    }
    const attempts = await attemptRows(row.id);
    expect(attempts.map((a) => [a.attemptNumber, a.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 204],
    ]);
    expect(attempts[0]!.responseBody).toBe("boom");
  });

  it("makes exactly 5 attempts against a receiver that always fails, then PermanentlyFailed", async () => {
    // The SDK warns on the console of a step id met again in a run (as if parallel steps collided): an operator would
    // read that once per retried delivery.
    const warnings = vi.spyOn(console, "warn");
    const server = await receiver(() => ({ status: 503 }));
    const { organizationId } = await integration(server.url);
    const { deliveryIds } = await completeOrder(organizationId);
    const row = await waitForStatus(deliveryIds[0]!, ["PermanentlyFailed"]);
    expect(warnings.mock.calls.map((args) => args.map(String).join(" ")).filter((line) => /step id/i.test(line))).toEqual([]);
    warnings.mockRestore();
    expect(row).toMatchObject({ attemptCount: 5, nextRetryAt: null });
    expect((await attemptRows(row.id)).map((a) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5]);

    // Never retried again, whoever asks.
    expect(await attemptDelivery(row.id)).toMatchObject({ status: "PermanentlyFailed", done: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.requests).toHaveLength(5);
  });

  it("attempts made at the same moment go out once each, also a delivery asked for twice (their claims share a statement)", async () => {
    const server = await receiver(() => ({ status: 200, body: "ok" }));
    const { organizationId, integration: hook } = await integration(server.url);
    const rows = await Promise.all(Array.from({ length: 20 }, () => insertDelivery(organizationId, hook.id)));
    const progress = await Promise.all([...rows.map((row) => attemptDelivery(row.id)), attemptDelivery(rows[0]!.id)]);
    expect(server.requests).toHaveLength(20);
    expect(progress.slice(0, 20)).toEqual(rows.map(() => ({ status: "Success", attemptCount: 1, done: true })));
    // The second ask found the delivery taken, as a second run would: it stops without attempting.
    expect(progress[20]).toMatchObject({ attemptCount: 0, done: true });
    for (const row of rows) expect((await attemptRows(row.id)).map((a) => [a.attemptNumber, a.statusCode])).toEqual([[1, 200]]);
  });

  it("records a nominal next_retry_at with backoff while a delivery is Failed", async () => {
    const server = await receiver(() => ({ status: 500 }));
    const { organizationId } = await integration(server.url);
    const { deliveryIds } = await completeOrder(organizationId);
    await waitForStatus(deliveryIds[0]!, ["PermanentlyFailed"]);
    // Replay the state machine one attempt at a time on a fresh delivery to observe the Failed state.
    const [copy] = await db
      .insert(webhookDeliveries)
      .values({ ...(await deliveryRow(deliveryIds[0]!)), id: undefined, status: "Pending", attemptCount: 0, nextRetryAt: null })
      .returning();
    const before = Date.now();
    expect(await attemptDelivery(copy!.id)).toMatchObject({ status: "Failed", attemptCount: 1, done: false });
    const failed = await deliveryRow(copy!.id);
    const wait = failed.nextRetryAt!.getTime() - before;
    expect(wait).toBeGreaterThanOrEqual(5_000 * 0.85 - 50);
    expect(wait).toBeLessThanOrEqual(5_000 * 1.15 + 1_000);
    expect(failed.lastAttemptAt).not.toBeNull();
  });

  it("treats a receiver that hangs past the total timeout as a failed attempt", async () => {
    const server = await receiver(() => "hang");
    const { organizationId, integration: hook } = await integration(server.url);
    const row = await insertDelivery(organizationId, hook.id);
    const progress = await attemptDelivery(row.id, { totalTimeoutMs: 500 });
    expect(progress).toMatchObject({ status: "Failed", attemptCount: 1 });
    const [attempt] = await attemptRows(row.id);
    expect(attempt!.statusCode).toBeNull();
    expect(attempt!.errorMessage).toMatch(/timed out/i);
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(450);
    expect(server.requests).toHaveLength(1);
  });

  it("records connection refused as an error and keeps going to PermanentlyFailed", async () => {
    const { organizationId } = await integration(await refusingUrl());
    const { deliveryIds } = await completeOrder(organizationId);
    const row = await waitForStatus(deliveryIds[0]!, ["PermanentlyFailed"]);
    const attempts = await attemptRows(row.id);
    expect(attempts).toHaveLength(5);
    for (const attempt of attempts) {
      expect(attempt.statusCode).toBeNull();
      expect(attempt.errorMessage).toMatch(/ECONNREFUSED/);
    }
  });

  it("does not follow redirects: a 3xx is a failure", async () => {
    const target = await receiver(() => ({ status: 200 }));
    const server = await receiver(() => ({ status: 302, headers: { Location: target.url } }));
    const { organizationId } = await integration(server.url);
    const { deliveryIds } = await completeOrder(organizationId);
    const row = await waitForStatus(deliveryIds[0]!, ["PermanentlyFailed"]);
    expect(target.requests).toHaveLength(0);
    const attempts = await attemptRows(row.id);
    expect(attempts.map((a) => a.statusCode)).toEqual([302, 302, 302, 302, 302]);
    expect(attempts[0]!.errorMessage).toMatch(/redirect/i);
  });

  it("stores at most 5000 characters of a response body", async () => {
    const server = await receiver(() => ({ status: 200, body: "x".repeat(20_000) }));
    const { organizationId } = await integration(server.url);
    const { deliveryIds } = await completeOrder(organizationId);
    const row = await waitForStatus(deliveryIds[0]!, ["Success"]);
    const [attempt] = await attemptRows(row.id);
    expect(attempt!.responseBody).toBe("x".repeat(5000));
  });

  it("sends no signature headers for an unsigned legacy integration, until its next update", async () => {
    const server = await receiver(() => ({ status: 200 }));
    const { organizationId, integration: hook } = await integration(server.url, false);
    expect(hook.signing_secret).toBeUndefined();
    const first = await completeOrder(organizationId);
    await waitForStatus(first.deliveryIds[0]!, ["Success"]);
    expect(server.requests[0]!.headers["x-webhook-delivery-id"]).toBe(toPublicId("delivery", first.deliveryIds[0]!));
    expect(server.requests[0]!.headers["x-webhook-signature"]).toBeUndefined();
    expect(server.requests[0]!.headers["x-webhook-timestamp"]).toBeUndefined();

    const updated = await updateIntegration(organizationId, hook.id, { enabled: true });
    expect(updated.signing_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const second = await completeOrder(organizationId);
    await waitForStatus(second.deliveryIds[0]!, ["Success"]);
    expect(() => verifyWebhook(server.requests[1]!.body, server.requests[1]!.headers, updated.signing_secret!)).not.toThrow();
  });

  it("delivers to a healthy receiver promptly while another receiver hangs", async () => {
    const dead = await receiver(() => "hang");
    const healthy = await receiver(() => ({ status: 200 }));
    const { organization } = await createTenant();
    await createIntegration({ organizationId: organization.id, url: dead.url });
    await createIntegration({ organizationId: organization.id, url: healthy.url });
    const started = Date.now();
    const { deliveryIds } = await completeOrder(organization.id);
    expect(deliveryIds).toHaveLength(2);
    const statuses = async () => (await Promise.all(deliveryIds.map(deliveryRow))).map((r) => r.status).sort();
    await expect.poll(statuses, { timeout: 5_000 }).toEqual(["InProgress", "Success"]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(healthy.requests).toHaveLength(1);
    expect(dead.requests).toHaveLength(1);
  });

  it("skips disabled integrations and integrations of other organizations", async () => {
    const server = await receiver(() => ({ status: 200 }));
    const { organizationId, integration: hook } = await integration(server.url);
    await integration(server.url); // another organization's integration
    await updateIntegration(organizationId, hook.id, { enabled: false });
    expect((await completeOrder(organizationId)).deliveryIds).toEqual([]);
  });

  it("checks the target again before each attempt: a host now resolving to loopback is refused, nothing sent", async () => {
    // A TLS receiver, so that only the address check (not the scheme rule) stands between the attempt and it.
    const server = await receiver(() => ({ status: 200 }), { tls: selfSignedCertificate() });
    // Saved while the host passed the check (private targets allowed); at delivery it resolves to loopback
    // with them refused, as after a DNS rebinding.
    const { organizationId, integration: hook } = await integration(`https://localhost:${new URL(server.url).port}/hooks`);
    const row = await insertDelivery(organizationId, hook.id);

    expect(await attemptDelivery(row.id, { allowPrivateTargets: false })).toMatchObject({ status: "Failed", attemptCount: 1, done: false });
    expect(server.requests).toEqual([]);
    const { data } = await listAttempts(organizationId, toPublicId("delivery", row.id));
    expect(data).toEqual([
      expect.objectContaining({
        attempt_number: 1,
        duration_ms: 0,
        error_message: "Target refused: URL host localhost resolves to a loopback, private, link-local or metadata address",
      }),
    ]);
    expect(data[0]).not.toHaveProperty("status_code");
  });

  it("pauses the deliveries of a disabled integration, and sends them once it is enabled again", async () => {
    const server = await receiver(() => ({ status: 200 }));
    const { organizationId, integration: hook } = await integration(server.url);
    const row = await insertDelivery(organizationId, hook.id);
    await updateIntegration(organizationId, hook.id, { enabled: false });

    expect(await attemptDelivery(row.id)).toEqual({ status: "Pending", attemptCount: 0, done: true });
    expect(server.requests).toEqual([]);
    // Untouched for long, yet not swept while paused.
    await db.update(webhookDeliveries).set({ updatedAt: new Date(Date.now() - 10 * 60_000) }).where(eq(webhookDeliveries.id, row.id));
    expect(await findStalledDeliveries()).toEqual([]);

    await updateIntegration(organizationId, hook.id, { enabled: true });
    inProcessDriver().fireCron();
    expect(await waitForStatus(row.id, ["Success"])).toMatchObject({ attemptCount: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it("resumes a delivery left InProgress by a killed process from its attempt count", async () => {
    const server = await receiver(() => ({ status: 200 }));
    const { organizationId, integration: hook } = await integration(server.url);
    const [row] = await db
      .insert(webhookDeliveries)
      .values({
        organizationId,
        integrationId: fromPublicId("integration", hook.id)!,
        eventType: "OrderCompleted",
        payload: '{"uuid":"resumed"}',
        status: "InProgress",
        attemptCount: 2,
      })
      .returning();
    expect(await resumeUnfinishedDeliveries()).toBe(1);
    const done = await waitForStatus(row!.id, ["Success"]);
    expect(done.attemptCount).toBe(3);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers["x-webhook-attempt"]).toBe("3");
    expect(server.requests[0]!.body).toBe('{"uuid":"resumed"}');
    expect((await attemptRows(row!.id)).map((a) => a.attemptNumber)).toEqual([3]);
    const [still] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, row!.id));
    expect(still!.status).toBe("Success");
  });

  it("the sweeper restarts deliveries whose announcement was lost, and leaves fresh ones alone", async () => {
    const server = await receiver(() => ({ status: 200 }));
    const { organizationId, integration: hook } = await integration(server.url);
    const values = (payload: string, updatedAt: Date) => ({
      organizationId,
      integrationId: fromPublicId("integration", hook.id)!,
      eventType: "OrderCompleted" as const,
      payload,
      updatedAt,
    });
    const [stalled, fresh] = await db
      .insert(webhookDeliveries)
      .values([values('{"lost":true}', new Date(Date.now() - 10 * 60_000)), values('{"fresh":true}', new Date())])
      .returning();
    inProcessDriver().fireCron();
    await waitForStatus(stalled!.id, ["Success"]);
    expect(server.requests.map((r) => r.body)).toEqual(['{"lost":true}']);
    expect((await deliveryRow(fresh!.id)).status).toBe("Pending");
  });

  it("commits a claim and an attempt record without waiting for the WAL flush, the delivery's insert as usual", async () => {
    // A trigger of this test's own notes the synchronous_commit each write of a delivery commits with.
    await db.execute(sql`create table commit_modes (n serial, status text, mode text)`);
    await db.execute(sql`create function note_commit_mode() returns trigger language plpgsql as $$
      begin insert into commit_modes (status, mode) values (new.status, current_setting('synchronous_commit')); return new; end $$`);
    await db.execute(sql`create trigger note_commit_mode after insert or update on webhook_deliveries
      for each row execute function note_commit_mode()`);
    try {
      const server = await receiver(() => ({ status: 204 }));
      const { organizationId, integration: hook } = await integration(server.url);
      const [row] = await db
        .insert(webhookDeliveries)
        .values({ organizationId, integrationId: fromPublicId("integration", hook.id)!, eventType: "OrderCompleted", payload: "{}" })
        .returning();
      expect(await attemptDelivery(row!.id)).toMatchObject({ status: "Success", done: true });
      const modes = rowsOf<{ status: string; mode: string }>(await db.execute(sql`select status, mode from commit_modes order by n`));
      expect(modes).toEqual([
        { status: "Pending", mode: "on" },
        { status: "InProgress", mode: "off" },
        { status: "Success", mode: "off" },
      ]);
      // Off for those statements' own transactions only.
      const [after] = rowsOf<{ mode: string }>(await db.execute(sql`select current_setting('synchronous_commit') as mode`));
      expect(after!.mode).toBe("on");
    } finally {
      await db.execute(sql`drop trigger note_commit_mode on webhook_deliveries`);
      await db.execute(sql`drop function note_commit_mode()`);
      await db.execute(sql`drop table commit_modes`);
    }
  });
});
