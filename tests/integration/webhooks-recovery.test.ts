import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { fromPublicId } from "@/lib/ids";
import { createIntegration } from "@/lib/webhooks/integrations";
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
    const queued = await Promise.all(answers.map((answer) => expectStatus<{ queued: number }>(answer, 200)));
    expect(queued.map((q) => q.queued).sort((a, b) => a - b)).toEqual([0, 30]);

    const redeliveries = await db
      .select({ of: webhookDeliveries.redeliveryOf })
      .from(webhookDeliveries)
      .where(sql`${webhookDeliveries.redeliveryOf} is not null`);
    expect(redeliveries).toHaveLength(30);
    expect(new Set(redeliveries.map((r) => r.of)).size).toBe(30);
    expect(await expectStatus(await api(path, { method: "POST", body: { since, until } }), 200)).toEqual({ queued: 0 });

    // The older ones are outside that window; a window reaching back takes them (and only them).
    expect(await expectStatus(await api(path, { method: "POST", body: { since: new Date(Date.now() - 48 * HOUR).toISOString() } }), 200)).toEqual({ queued: 5 });
    await expect
      .poll(async () => (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, "Success"))).length, { timeout: 20_000 })
      .toBe(35);
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
