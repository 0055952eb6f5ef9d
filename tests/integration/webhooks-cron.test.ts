import { count, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { idempotencyKeys, webhookDeliveries } from "@/db/schema";
import { inProcessDriver } from "@/inngest/embedded";
import { DELIVERY_RUNS_PER_INTEGRATION } from "@/inngest/functions/deliver-webhook";
import { pruneExpiredIdempotencyKeys } from "@/lib/http/idempotency";
import { findStalledDeliveries } from "@/lib/webhooks/delivery-queue";
import { createIntegration, updateIntegration } from "@/lib/webhooks/integrations";
import { announceDeliveries } from "@/lib/webhooks/outbox";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";
import { useReceivers } from "../support/receiver";
import { insertDelivery, waitForStatus } from "../support/webhooks";

const TEN_MINUTES_AGO = () => new Date(Date.now() - 10 * 60_000);
// Cron runs take a few database statements; generous for a busy machine.
const POLL = { timeout: 5_000 };

/** Makes deliveries look untouched for ten minutes, as the sweeper sees lost or long-waiting ones. */
async function age(ids: string[]) {
  await db.update(webhookDeliveries).set({ updatedAt: TEN_MINUTES_AGO() }).where(inArray(webhookDeliveries.id, ids));
}

describe("cron functions", () => {
  useTestDatabase();
  const receiver = useReceivers();

  it("the sweeper's re-announcements of deliveries already queued or running start no second run", async () => {
    const dead = await receiver(() => "hang");
    const { organization } = await createTenant();
    const integration = await createIntegration({ organizationId: organization.id, url: dead.url });
    const backlog = await Promise.all(
      Array.from({ length: DELIVERY_RUNS_PER_INTEGRATION + 4 }, () => insertDelivery(organization.id, integration.id)),
    );
    const ids = backlog.map((row) => row.id);
    await announceDeliveries(ids);
    const driver = inProcessDriver();
    await expect.poll(() => dead.requests.length, POLL).toBe(DELIVERY_RUNS_PER_INTEGRATION);
    expect(driver.load()).toEqual({ running: DELIVERY_RUNS_PER_INTEGRATION, waiting: 4 });

    // Every delivery of the backlog is now "stalled" to the sweeper: the queued Pending ones and the running ones.
    await age(ids);
    expect((await findStalledDeliveries()).sort()).toEqual([...ids].sort());
    for (let tick = 0; tick < 3; tick++) {
      driver.fireCron();
      // The cron runs end; only the backlog's runs remain, no more of them than before.
      await expect.poll(() => driver.load().running, POLL).toBe(DELIVERY_RUNS_PER_INTEGRATION);
      expect(driver.load()).toEqual({ running: DELIVERY_RUNS_PER_INTEGRATION, waiting: 4 });
    }
    expect(dead.requests).toHaveLength(DELIVERY_RUNS_PER_INTEGRATION);

    await dead.close();
    for (const id of ids) await waitForStatus(id, ["PermanentlyFailed"], 30_000);
    await expect.poll(() => driver.load(), POLL).toEqual({ running: 0, waiting: 0 });
  });

  it("the sweeper takes stalled deliveries round-robin across integrations, skipping disabled ones", async () => {
    const { organization } = await createTenant();
    const integration = (url: string) => createIntegration({ organizationId: organization.id, url });
    const busy = await integration("http://127.0.0.1:1/a");
    const quiet = await integration("http://127.0.0.1:1/b");
    const disabled = await integration("http://127.0.0.1:1/c");
    await updateIntegration(organization.id, disabled.id, { enabled: false });
    // The busy integration's five are the oldest; the quiet one's single lost delivery comes after them all.
    const busyRows = [];
    for (let i = 0; i < 5; i++) busyRows.push(await insertDelivery(organization.id, busy.id));
    const quietRow = await insertDelivery(organization.id, quiet.id);
    const disabledRow = await insertDelivery(organization.id, disabled.id);
    for (const [index, row] of [...busyRows, quietRow, disabledRow].entries()) {
      await db
        .update(webhookDeliveries)
        .set({ updatedAt: new Date(Date.now() - (20 - index) * 60_000) })
        .where(eq(webhookDeliveries.id, row.id));
    }

    expect(await findStalledDeliveries(3)).toEqual([busyRows[0]!.id, quietRow.id, busyRows[1]!.id]);
    expect(await findStalledDeliveries()).toEqual([busyRows[0]!.id, quietRow.id, ...busyRows.slice(1).map((r) => r.id)]);
  });

  it("prunes Idempotency-Key records older than 24 hours, every minute, in batches", async () => {
    const { organization } = await createTenant();
    const key = (name: string, hoursAgo: number, responseStatus: number | null = 201) => ({
      organizationId: organization.id,
      key: name,
      requestHash: "hash",
      responseStatus,
      responseBody: responseStatus === null ? null : "{}",
      createdAt: new Date(Date.now() - hoursAgo * 3_600_000),
    });
    await db
      .insert(idempotencyKeys)
      .values([key("fresh", 1), key("almost-expired", 23.9), key("expired", 24.1), key("abandoned", 30, null)]);
    const remaining = async () =>
      (await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).orderBy(idempotencyKeys.key)).map((r) => r.key);

    // Through the cron, as a server runs it.
    inProcessDriver().fireCron();
    await expect.poll(remaining, POLL).toEqual(["almost-expired", "fresh"]);

    // A backlog larger than one batch goes in one run.
    await db.execute(sql`
      insert into ${idempotencyKeys} (organization_id, key, request_hash, response_status, created_at)
      select ${organization.id}::uuid, 'old-' || n, 'hash', 201, now() - interval '2 days'
      from generate_series(1, 5003) as n`);
    expect(await pruneExpiredIdempotencyKeys()).toBe(5003);
    const [left] = await db.select({ n: count() }).from(idempotencyKeys).where(eq(idempotencyKeys.organizationId, organization.id));
    expect(left!.n).toBe(2);
    expect(await pruneExpiredIdempotencyKeys()).toBe(0);
  });
});
