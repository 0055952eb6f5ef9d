import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { webhookAttempts, webhookDeliveries } from "@/db/schema";
import { createIntegration } from "@/lib/webhooks/integrations";
import { useAppProcesses } from "../support/app-process";
import { usePostgresDatabasePerTest } from "../support/database";
import { createTenant } from "../support/fixtures";
import { useReceivers } from "../support/receiver";
import { insertDelivery } from "../support/webhooks";

describe("crash safety: SIGKILL while a delivery waits for its nominal retry time", () => {
  const database = usePostgresDatabasePerTest();
  const apps = useAppProcesses();
  const receiver = useReceivers();

  it("the restarted app makes the retry no earlier than next_retry_at, and the delivery succeeds", async () => {
    // Down for the first request, up afterwards.
    const hook = await receiver((index) => ({ status: index === 0 ? 503 : 200 }));
    const { organization } = await createTenant();
    const integration = await createIntegration({ organizationId: organization.id, url: hook.url, retrySchedule: "nominal" });
    const delivery = await insertDelivery(organization.id, integration.id);
    const row = async () => (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id)))[0]!;

    const first = await apps.start({ databaseUrl: database.url() });
    // The delivery was written before the app started: its start-up resume announces it.
    await expect.poll(async () => (await row()).status, { timeout: 20_000 }).toBe("Failed");
    const failed = await row();
    expect(failed.nextRetryAt!.getTime()).toBeGreaterThan(Date.now());
    // The run is sleeping until next_retry_at (about 5 s away); the process dies during the sleep.
    await first.kill();
    expect(hook.requests).toHaveLength(1);

    await apps.start({ databaseUrl: database.url() });
    await expect.poll(async () => (await row()).status, { timeout: 30_000, interval: 100 }).toBe("Success");
    const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id)).orderBy(asc(webhookAttempts.attemptNumber));
    expect(attempts.map((a) => [a.attemptNumber, a.statusCode])).toEqual([
      [1, 503],
      [2, 200],
    ]);
    expect(attempts[1]!.createdAt.getTime()).toBeGreaterThanOrEqual(failed.nextRetryAt!.getTime());
    expect(hook.requests).toHaveLength(2);
  });
});
