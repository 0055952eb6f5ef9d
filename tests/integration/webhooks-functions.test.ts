import { InngestTestEngine } from "@inngest/test";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { idempotencyKeys, webhookDeliveries, webhookIntegrations } from "@/db/schema";
import { deliveryCreatedEvent, DELIVERY_CREATED_EVENT } from "@/inngest/events";
import { deliverWebhook } from "@/inngest/functions/deliver-webhook";
import { disableFailingWebhooks } from "@/inngest/functions/disable-failing-webhooks";
import { pruneIdempotencyKeys } from "@/inngest/functions/prune-idempotency-keys";
import { pruneWebhookDeliveries } from "@/inngest/functions/prune-webhook-deliveries";
import { sweepDeliveries, SWEEP_ROUND_MS } from "@/inngest/functions/sweep-deliveries";
import { fromPublicId } from "@/lib/ids";
import { AUTO_DISABLE_MIN_FAILURES } from "@/lib/webhooks/auto-disable";
import { createIntegration, getIntegration } from "@/lib/webhooks/integrations";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";
import { useReceivers } from "../support/receiver";
import { attemptRows, deliveryRow, insertDelivery } from "../support/webhooks";

// Every Inngest function run by Inngest's own test engine against the real database and real receivers.
const deliveryEvent = (deliveryId: string, integrationId = "unknown") =>
  ({ name: DELIVERY_CREATED_EVENT, data: { deliveryId, integrationId } }) as const;
const timerEvent = { name: "inngest/scheduled.timer", data: {} } as const;
const DAY = 86_400_000;

function runDelivery(deliveryId: string) {
  return new InngestTestEngine({ function: deliverWebhook, events: [deliveryEvent(deliveryId)] }).execute();
}

describe("Inngest functions under @inngest/test", () => {
  useTestDatabase();
  const receiver = useReceivers();

  async function integrationWith(url: string, retrySchedule?: string) {
    const { organization } = await createTenant();
    const integration = await createIntegration({ organizationId: organization.id, url, retrySchedule });
    return { organizationId: organization.id, integration };
  }

  describe("deliver-webhook", () => {
    it("retries a receiver that answers 500, then succeeds on its 200", async () => {
      const server = await receiver((i) => ({ status: i === 0 ? 500 : 200 }));
      const { organizationId, integration } = await integrationWith(server.url);
      const delivery = await insertDelivery(organizationId, integration.id);
      const { result, ctx } = await runDelivery(delivery.id);
      expect(result).toEqual({ status: "Success", attemptCount: 2, done: true });
      expect(ctx.step.run).toHaveBeenCalledTimes(2);
      expect(ctx.step.sleepUntil).not.toHaveBeenCalled();
      expect((await attemptRows(delivery.id)).map((a) => a.statusCode)).toEqual([500, 200]);
      expect(server.requests).toHaveLength(2);
    });

    it("ends PermanentlyFailed after five failures, with five attempt records", async () => {
      const server = await receiver(() => ({ status: 503 }));
      const { organizationId, integration } = await integrationWith(server.url);
      const delivery = await insertDelivery(organizationId, integration.id);
      const { result } = await runDelivery(delivery.id);
      expect(result).toEqual({ status: "PermanentlyFailed", attemptCount: 5, done: true });
      expect((await attemptRows(delivery.id)).map((a) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5]);
      expect(server.requests).toHaveLength(5);
    });

    it("records a refused target as a failed attempt without sending anything", async () => {
      const server = await receiver(() => ({ status: 200 }));
      const { organizationId, integration } = await integrationWith(server.url);
      await db
        .update(webhookIntegrations)
        .set({ url: "ftp://127.0.0.1/hook" })
        .where(eq(webhookIntegrations.id, fromPublicId("integration", integration.id)!));
      const delivery = await insertDelivery(organizationId, integration.id);
      const { result } = await runDelivery(delivery.id);
      expect(result).toEqual({ status: "PermanentlyFailed", attemptCount: 5, done: true });
      expect((await attemptRows(delivery.id))[0]!.errorMessage).toMatch(/^Target refused: URL must use/);
      expect(server.requests).toHaveLength(0);
    });

    it("ends at once when the delivery row is gone", async () => {
      const { result, ctx } = await runDelivery("00000000-0000-4000-8000-000000000000");
      expect(result).toEqual({ status: "PermanentlyFailed", attemptCount: 0, done: true });
      expect(ctx.step.run).toHaveBeenCalledTimes(1);
    });

    it("fails the run when a step hits a database error, leaving the retry to the engine", async () => {
      // Not a uuid: the database itself rejects the statement.
      const { result, error } = await runDelivery("not-a-uuid");
      expect(result).toBeUndefined();
      expect(String((error as { message?: string })?.message ?? error)).toMatch(/uuid/i);
    });

    it("on the nominal retry schedule sleeps until next_retry_at between attempts", async () => {
      const server = await receiver((i) => ({ status: i === 0 ? 500 : 200 }));
      const { organizationId, integration } = await integrationWith(server.url, "nominal");
      const delivery = await insertDelivery(organizationId, integration.id);
      let scheduled: Date | null = null;
      // The sleep itself is the engine's; here time "passes" by making the retry due.
      const sleepOver = async () => {
        scheduled = (await deliveryRow(delivery.id)).nextRetryAt;
        await db.update(webhookDeliveries).set({ nextRetryAt: new Date(Date.now() - 1000) }).where(eq(webhookDeliveries.id, delivery.id));
        return null;
      };
      const { result, ctx } = await new InngestTestEngine({ function: deliverWebhook, events: [deliveryEvent(delivery.id)] }).execute({
        steps: [{ id: "wait-for-retry-1", handler: sleepOver }],
      });
      expect(result).toEqual({ status: "Success", attemptCount: 2, done: true });
      expect(scheduled).not.toBeNull();
      expect(ctx.step.sleepUntil).toHaveBeenCalledWith("wait-for-retry-1", scheduled!.toISOString());
      expect(server.requests).toHaveLength(2);
    });
  });

  it("sweep-deliveries re-announces stalled deliveries with event ids that name their state", async () => {
    const { organizationId, integration } = await integrationWith("http://127.0.0.1:9/");
    const delivery = await insertDelivery(organizationId, integration.id);
    await db.update(webhookDeliveries).set({ updatedAt: new Date(Date.now() - 10 * 60_000) }).where(eq(webhookDeliveries.id, delivery.id));
    const row = await deliveryRow(delivery.id);
    const { result, ctx } = await new InngestTestEngine({ function: sweepDeliveries, events: [timerEvent] }).execute({
      steps: [{ id: "announce", handler: () => ({ ids: [] }) }],
    });
    expect(result).toEqual({ announced: 1 });
    const round = Math.floor(Date.now() / SWEEP_ROUND_MS);
    const expected = deliveryCreatedEvent({ deliveryId: row.id, integrationId: row.integrationId, attemptCount: 0, updatedAt: row.updatedAt, round });
    expect(expected.id).toBe(`delivery-${row.id}-0-${row.updatedAt.getTime()}-r${round}`);
    expect(ctx.step.sendEvent).toHaveBeenCalledWith("announce", [expected]);
  });

  it("prune-idempotency-keys deletes keys older than a day", async () => {
    const { organization } = await createTenant();
    await db.insert(idempotencyKeys).values([
      { organizationId: organization.id, key: "old", requestHash: "h", createdAt: new Date(Date.now() - 2 * DAY) },
      { organizationId: organization.id, key: "new", requestHash: "h" },
    ]);
    const { result } = await new InngestTestEngine({ function: pruneIdempotencyKeys, events: [timerEvent] }).execute();
    expect((result as { pruned: number }).pruned).toBeGreaterThanOrEqual(1);
    const left = await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.organizationId, organization.id));
    expect(left.map((k) => k.key)).toEqual(["new"]);
  });

  it("disable-failing-webhooks disables an integration failing for the span, 20 in a row, and not one with a success between", async () => {
    async function failing(successAt?: number) {
      const { organizationId, integration } = await integrationWith("http://127.0.0.1:9/");
      const id = fromPublicId("integration", integration.id)!;
      await db.update(webhookIntegrations).set({ updatedAt: new Date(Date.now() - 30 * DAY) }).where(eq(webhookIntegrations.id, id));
      const rows = await Promise.all(Array.from({ length: AUTO_DISABLE_MIN_FAILURES }, () => insertDelivery(organizationId, integration.id)));
      await Promise.all(
        rows.map((r, i) =>
          db
            .update(webhookDeliveries)
            .set({ status: i === successAt ? "Success" : "PermanentlyFailed", attemptCount: 5, lastAttemptAt: new Date(Date.now() - (6 * DAY - i * 60_000)) })
            .where(eq(webhookDeliveries.id, r.id)),
        ),
      );
      return { organizationId, integration };
    }
    const dead = await failing();
    const recovered = await failing(AUTO_DISABLE_MIN_FAILURES - 1);
    const { result } = await new InngestTestEngine({ function: disableFailingWebhooks, events: [timerEvent] }).execute();
    expect(result).toEqual({ disabled: [fromPublicId("integration", dead.integration.id)] });
    const disabled = await getIntegration(dead.organizationId, dead.integration.id);
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: "failing", disabled_at: expect.any(String) });
    expect(await getIntegration(recovered.organizationId, recovered.integration.id)).toMatchObject({ enabled: true });
    expect(await getIntegration(recovered.organizationId, recovered.integration.id)).not.toHaveProperty("disabled_reason");
  });

  it("prune-webhook-deliveries deletes finished deliveries past retention with their attempts, never unfinished ones", async () => {
    const { organizationId, integration } = await integrationWith("http://127.0.0.1:9/");
    const rows = await Promise.all(["Success", "PermanentlyFailed", "Failed", "Pending", "Success"].map(() => insertDelivery(organizationId, integration.id)));
    const statuses = ["Success", "PermanentlyFailed", "Failed", "Pending", "Success"] as const;
    const old = new Date(Date.now() - 91 * DAY);
    await Promise.all(
      rows.map((r, i) =>
        db
          .update(webhookDeliveries)
          .set({ status: statuses[i], ...(i < 4 ? { createdAt: old, updatedAt: old } : {}) })
          .where(eq(webhookDeliveries.id, r.id)),
      ),
    );
    await db.execute(sql`insert into webhook_attempts (delivery_id, attempt_number, duration_ms) values (${rows[0]!.id}, 1, 5)`);
    const { result } = await new InngestTestEngine({ function: pruneWebhookDeliveries, events: [timerEvent] }).execute();
    expect(result).toEqual({ deleted: 2 });
    const left = await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(inArray(webhookDeliveries.id, rows.map((r) => r.id)));
    expect(left.map((r) => r.id).sort()).toEqual([rows[2]!.id, rows[3]!.id, rows[4]!.id].sort());
    expect(await attemptRows(rows[0]!.id)).toEqual([]);
  });
});
