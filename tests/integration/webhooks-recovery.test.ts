import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { webhookDeliveries, webhookRecoveries } from "@/db/schema";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { createIntegration } from "@/lib/webhooks/integrations";
import { latestRecoveries } from "@/lib/webhooks/recovery";
import { expectError, expectStatus } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { useReceivers } from "../support/receiver";
import { useTestServer } from "../support/server";

const HOUR = 3_600_000;

describe("POST /webhooks/integrations/:id/recover", () => {
  useTestDatabase();
  const server = useTestServer();
  const receiver = useReceivers();

  /** `count` PermanentlyFailed deliveries of one integration, created `hoursAgo` hours ago. */
  async function failedDeliveries(organizationId: string, integrationPublicId: string, count: number, hoursAgo: number) {
    const integrationId = fromPublicId("integration", integrationPublicId)!;
    await db.execute(sql`
      insert into webhook_deliveries (organization_id, integration_id, event_type, payload, status, attempt_count, created_at)
      select ${organizationId}, ${integrationId}, 'OrderCompleted', '{"n":' || n || '}', 'PermanentlyFailed', 5,
             now() - make_interval(secs => ${hoursAgo * 3600})
      from generate_series(1, ${count}) n`);
  }

  async function setUp() {
    const tenant = await createTenant();
    const hook = await receiver(() => ({ status: 200 }));
    const integration = await createIntegration({ organizationId: tenant.organization.id, url: hook.url });
    return { tenant, hook, integration, api: apiClient(server.url(), tenant.userToken), path: `/webhooks/integrations/${integration.id}/recover` };
  }

  it("queues one redelivery per failed delivery in the window, exactly once under two concurrent calls", async () => {
    const { tenant, integration, api, path } = await setUp();
    await failedDeliveries(tenant.organization.id, integration.id, 30, 3);
    await failedDeliveries(tenant.organization.id, integration.id, 5, 30);
    const since = new Date(Date.now() - 4 * HOUR).toISOString();
    const until = new Date(Date.now() - 2 * HOUR).toISOString();

    const answers = await Promise.all([1, 2].map(() => api(path, { method: "POST", body: { since, until } })));
    const recoveries = await Promise.all(answers.map((answer) => expectStatus<{ id: string; queued: number }>(answer, 200)));
    expect(recoveries.map((r) => r.queued).sort((a, b) => a - b)).toEqual([0, 30]);
    const first = recoveries.find((r) => r.queued === 30)!;
    expect(first.id).toMatch(/^rcv_[0-9a-f]{32}$/);

    // Each call is one recovery record; the 30 redeliveries, each of a different delivery, all reference the first.
    const records = await db.select().from(webhookRecoveries).where(eq(webhookRecoveries.organizationId, tenant.organization.id));
    expect(records.map((r) => [toPublicId("recovery", r.id), r.queued]).sort()).toEqual(recoveries.map((r) => [r.id, r.queued]).sort());
    for (const record of records) {
      expect(record).toMatchObject({
        integrationId: fromPublicId("integration", integration.id),
        windowSince: new Date(since),
        windowUntil: new Date(until),
        createdBy: tenant.user.id,
      });
    }
    const redeliveries = await db
      .select({ of: webhookDeliveries.redeliveryOf, recovery: webhookDeliveries.recoveryId })
      .from(webhookDeliveries)
      .where(sql`${webhookDeliveries.redeliveryOf} is not null`);
    expect(redeliveries).toHaveLength(30);
    expect(new Set(redeliveries.map((r) => r.of)).size).toBe(30);
    expect(new Set(redeliveries.map((r) => r.recovery))).toEqual(new Set([fromPublicId("recovery", first.id)]));
    expect(await expectStatus(await api(path, { method: "POST", body: { since, until } }), 200)).toMatchObject({ queued: 0 });

    // The older ones are outside that window; a window reaching back takes them (and only them).
    const back = await expectStatus<{ id: string; queued: number }>(
      await api(path, { method: "POST", body: { since: new Date(Date.now() - 48 * HOUR).toISOString() } }),
      200,
    );
    expect(back.queued).toBe(5);
    await expect
      .poll(async () => (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, "Success"))).length, { timeout: 20_000 })
      .toBe(35);
    // The integration's latest recovery that queued anything is the last one, and it has finished.
    const progress = await latestRecoveries(tenant.organization.id, [fromPublicId("integration", integration.id)!]);
    expect(progress.get(fromPublicId("integration", integration.id)!)).toMatchObject({ id: back.id, queued: 5, done: 5, failed: 0, running: 0 });
  });

  it("counts the recovery's redeliveries exactly: those that fail again as failed; a later empty recovery is not shown", async () => {
    const tenant = await createTenant();
    const hook = await receiver((index) => ({ status: index === 0 ? 200 : 500 }));
    const integration = await createIntegration({ organizationId: tenant.organization.id, url: hook.url });
    const api = apiClient(server.url(), tenant.userToken);
    const path = `/webhooks/integrations/${integration.id}/recover`;
    const integrationId = fromPublicId("integration", integration.id)!;
    await failedDeliveries(tenant.organization.id, integration.id, 2, 1);
    // The window ends before the redeliveries are created: one that fails for good would be recoverable itself.
    const window = { since: new Date(Date.now() - 2 * HOUR).toISOString(), until: new Date().toISOString() };
    const recovery = await expectStatus<{ id: string; queued: number }>(await api(path, { method: "POST", body: window }), 200);
    expect(recovery.queued).toBe(2);
    // Only the first request succeeds: one redelivery succeeds at once, the other fails all five attempts.
    await expect
      .poll(async () => (await latestRecoveries(tenant.organization.id, [integrationId])).get(integrationId), { timeout: 20_000 })
      .toMatchObject({ id: recovery.id, queued: 2, running: 0 });
    expect((await latestRecoveries(tenant.organization.id, [integrationId])).get(integrationId)).toMatchObject({ done: 1, failed: 1 });

    const empty = await expectStatus<{ id: string; queued: number }>(await api(path, { method: "POST", body: window }), 200);
    expect(empty.queued).toBe(0);
    expect((await latestRecoveries(tenant.organization.id, [integrationId])).get(integrationId)!.id).toBe(recovery.id);
    // Another organization's recoveries are not listed.
    expect((await latestRecoveries((await createTenant()).organization.id, [integrationId])).size).toBe(0);
  });

  it("refuses more than 10,000 deliveries in one call, saying how many", async () => {
    const { tenant, integration, api, path } = await setUp();
    await integrationPaused(integration.id);
    await failedDeliveries(tenant.organization.id, integration.id, 10_001, 1);
    const response = await api(path, { method: "POST", body: { since: new Date(Date.now() - 2 * HOUR).toISOString() } });
    const body = await expectError(response, 400, "validation_failed");
    expect(JSON.stringify(body)).toContain("10001");
    expect(JSON.stringify(body)).toContain("narrow the window");
    expect(await db.select().from(webhookDeliveries).where(sql`${webhookDeliveries.redeliveryOf} is not null`)).toHaveLength(0);
    // Refused as a whole: no recovery is recorded either.
    expect(await db.select().from(webhookRecoveries).where(eq(webhookRecoveries.organizationId, tenant.organization.id))).toHaveLength(0);
  });

  it("answers 400 for bad input and 404 for other organizations' integrations", async () => {
    const { api, path, integration } = await setUp();
    await expectError(await api(path, { method: "POST", body: {} }), 400, "validation_failed", ["since"]);
    await expectError(await api(path, { method: "POST", body: { since: "yesterday" } }), 400, "validation_failed", ["since"]);
    const now = new Date().toISOString();
    await expectError(await api(path, { method: "POST", body: { since: now, until: new Date(Date.now() - HOUR).toISOString() } }), 400, "validation_failed");
    const other = apiClient(server.url(), (await createTenant()).userToken);
    await expectError(await other(path, { method: "POST", body: { since: now } }), 404, "not_found");
    await expectError(await api("/webhooks/integrations/int_nonsense/recover", { method: "POST", body: { since: now } }), 404, "not_found");
    expect((await api(`/webhooks/integrations/${integration.id}`, { method: "DELETE" })).status).toBe(204);
    await expectError(await api(path, { method: "POST", body: { since: new Date(Date.now() - HOUR).toISOString() } }), 404, "not_found");
  });
});

/** Nothing of a paused integration is attempted, so a large test backlog stays put. */
async function integrationPaused(publicId: string) {
  await db.execute(sql`update webhook_integrations set enabled = false where id = ${fromPublicId("integration", publicId)}`);
}
