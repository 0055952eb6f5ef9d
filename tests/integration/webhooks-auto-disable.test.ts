import { describe, expect, it } from "vitest";
import { AUTO_DISABLE_MIN_FAILURES, disableFailingIntegrations, listAutoDisabledIntegrations } from "@/lib/webhooks/auto-disable";
import { createIntegration, getIntegration, updateIntegration } from "@/lib/webhooks/integrations";
import { announceDeliveries } from "@/lib/webhooks/outbox";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";
import { refusingUrl, useReceivers } from "../support/receiver";
import { insertDelivery, waitForStatus } from "../support/webhooks";

const SPAN_MS = 1_000;

describe("auto-disable of webhooks whose deliveries keep failing (short span)", () => {
  useTestDatabase();
  const receiver = useReceivers();

  /** Delivers `count` deliveries to the integration through the engine and waits until each has ended. */
  async function deliver(organizationId: string, integrationId: string, count: number, ended = ["PermanentlyFailed", "Success"]) {
    const rows = await Promise.all(Array.from({ length: count }, () => insertDelivery(organizationId, integrationId)));
    await announceDeliveries(rows.map((r) => r.id));
    for (const row of rows) await waitForStatus(row.id, ended, 30_000);
  }

  it("disables after the span and 20 failures in a row, names it for the banner, and re-enabling starts afresh", async () => {
    const { organization } = await createTenant();
    const integration = await createIntegration({ organizationId: organization.id, url: await refusingUrl() });
    await deliver(organization.id, integration.id, AUTO_DISABLE_MIN_FAILURES - 1);
    await new Promise((resolve) => setTimeout(resolve, SPAN_MS));
    expect(await disableFailingIntegrations(SPAN_MS), "19 failures are not enough").toEqual([]);

    await deliver(organization.id, integration.id, 1);
    expect(await disableFailingIntegrations(3_600_000), "the span has not passed").toEqual([]);
    const [disabled] = await disableFailingIntegrations(SPAN_MS);
    expect(disabled).toBeDefined();
    expect(await getIntegration(organization.id, integration.id)).toMatchObject({
      enabled: false,
      disabled_reason: "failing",
      disabled_at: expect.any(String),
    });
    expect((await listAutoDisabledIntegrations(organization.id)).map((i) => i.url)).toEqual([integration.url]);

    const enabled = await updateIntegration(organization.id, integration.id, { enabled: true });
    expect(enabled.enabled).toBe(true);
    expect(enabled).not.toHaveProperty("disabled_reason");
    expect(enabled).not.toHaveProperty("disabled_at");
    expect(await listAutoDisabledIntegrations(organization.id)).toEqual([]);
    // The failures before re-enabling no longer count.
    expect(await disableFailingIntegrations(0)).toEqual([]);
  });

  it("a success resets the count", async () => {
    let up = false;
    const server = await receiver(() => ({ status: up ? 200 : 500 }));
    const { organization } = await createTenant();
    const integration = await createIntegration({ organizationId: organization.id, url: server.url });
    await deliver(organization.id, integration.id, AUTO_DISABLE_MIN_FAILURES);
    up = true;
    await deliver(organization.id, integration.id, 1, ["Success"]);
    up = false;
    await deliver(organization.id, integration.id, AUTO_DISABLE_MIN_FAILURES - 1);
    await new Promise((resolve) => setTimeout(resolve, SPAN_MS));
    expect(await disableFailingIntegrations(SPAN_MS)).toEqual([]);
    expect((await getIntegration(organization.id, integration.id)).enabled).toBe(true);
  });
});
