import { describe, expect, it } from "vitest";
import { issueUserToken } from "@/lib/auth/user-token";
import { toPublicId } from "@/lib/ids";
import { createIntegration } from "@/lib/webhooks/integrations";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { expectError, expectStatus } from "../support/catalog";
import { useReceivers } from "../support/receiver";
import { completeOrder, waitForStatus } from "../support/webhooks";
import { useTestServer } from "../support/server";

describe("webhook delivery inspection endpoints", () => {
  useTestDatabase();
  const server = useTestServer();
  const receiver = useReceivers();

  async function tenantWithDelivery(script: Parameters<typeof receiver>[0]) {
    const hook = await receiver(script);
    const tenant = await createTenant();
    const integration = await createIntegration({ organizationId: tenant.organization.id, url: hook.url });
    const { deliveryIds } = await completeOrder(tenant.organization.id);
    return { tenant, integration, hook, deliveryId: deliveryIds[0]! };
  }

  it("lists, shows and explains deliveries with a dashboard user token", async () => {
    const { tenant, integration, deliveryId } = await tenantWithDelivery((n) => (n === 0 ? { status: 500, body: "try again" } : { status: 200, body: "thanks" }));
    await waitForStatus(deliveryId, ["Success"]);
    const api = apiClient(server.url(), tenant.userToken);
    const id = toPublicId("delivery", deliveryId);

    const list = await expectStatus<{ data: { id: string }[]; meta: unknown }>(await api("/webhooks/deliveries"), 200);
    expect(list.meta).toEqual({ page: 1, per_page: 25, total: 1 });
    expect(list.data.map((d) => d.id)).toEqual([id]);

    const one = await expectStatus(await api(`/webhooks/deliveries/${id}`), 200);
    expect(one).toEqual({
      id,
      integration_id: integration.id,
      event_type: "OrderCompleted",
      status: "Success",
      attempt_count: 2,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      last_attempt_at: expect.any(String),
      order_id: expect.stringMatching(/^ord_[0-9a-f]{32}$/),
      test: false,
      payload: expect.objectContaining({ customer_name: "Åsa Öberg" }),
      redeliveries: [],
    });

    const attempts = await expectStatus<{ data: Record<string, unknown>[] }>(await api(`/webhooks/deliveries/${id}/attempts`), 200);
    const sent = {
      request_url: expect.any(String),
      request_method: "POST",
      request_headers: expect.any(Object),
      response_headers: expect.any(Object),
      started_at: expect.any(String),
      duration_ms: expect.any(Number),
      created_at: expect.any(String),
    };
    expect(attempts.data).toEqual([
      { attempt_number: 1, status_code: 500, response_body: "try again", ...sent },
      { attempt_number: 2, status_code: 200, response_body: "thanks", ...sent },
    ]);

    const filtered = await expectStatus<{ data: unknown[]; meta: { total: number } }>(
      await api(`/webhooks/deliveries?status=Failed&integration_id=${integration.id}`),
      200,
    );
    expect(filtered.meta.total).toBe(0);
    const byIntegration = await expectStatus<{ meta: { total: number } }>(
      await api(`/webhooks/deliveries?integration_id=${integration.id}&per_page=1&page=1`),
      200,
    );
    expect(byIntegration.meta).toEqual({ page: 1, per_page: 1, total: 1 });
    await expectError(await api("/webhooks/deliveries?status=Nope"), 400, "validation_failed", ["status"]);
    await expectError(await api("/webhooks/deliveries?per_page=1000"), 400, "validation_failed", ["per_page"]);
  });

  it("redelivers as a new delivery with the same body, started like any other", async () => {
    const { tenant, deliveryId, hook } = await tenantWithDelivery(() => ({ status: 200 }));
    await waitForStatus(deliveryId, ["Success"]);
    const api = apiClient(server.url(), tenant.userToken);
    const original = toPublicId("delivery", deliveryId);

    const response = await api(`/webhooks/deliveries/${original}/redeliver`, { method: "POST" });
    const redelivery = await expectStatus<{ id: string; redelivery_of: string; status: string }>(response, 201);
    expect(response.headers.get("location")).toBe(`/webhooks/deliveries/${redelivery.id}`);
    expect(redelivery.id).not.toBe(original);
    expect(redelivery.redelivery_of).toBe(original);
    await expect
      .poll(async () => ((await (await api(`/webhooks/deliveries/${redelivery.id}`)).json()) as { status: string }).status, { timeout: 10_000 })
      .toBe("Success");
    expect(hook.requests).toHaveLength(2);
    expect(hook.requests[1]!.body).toBe(hook.requests[0]!.body);
    expect(hook.requests[1]!.headers["x-webhook-delivery-id"]).toBe(redelivery.id);
  });

  it("refuses sk_ API keys with 401 and hides other organizations' deliveries with 404", async () => {
    const { tenant, deliveryId } = await tenantWithDelivery(() => ({ status: 200 }));
    const id = toPublicId("delivery", deliveryId);
    const withKey = apiClient(server.url(), tenant.apiKey);
    const refused = await expectError(await withKey("/webhooks/deliveries"), 401, "unauthorized");
    expect(refused.error).toMatch(/dashboard user token/i);
    await expectError(await withKey(`/webhooks/deliveries/${id}`), 401, "unauthorized");
    await expectError(await apiClient(server.url(), "not-a-token")("/webhooks/deliveries"), 401, "unauthorized");
    const tampered = tenant.userToken.slice(0, -2) + (tenant.userToken.endsWith("AA") ? "BB" : "AA");
    await expectError(await apiClient(server.url(), tampered)("/webhooks/deliveries"), 401, "unauthorized");
    const expired = await issueUserToken({ userId: tenant.user.id, organizationId: tenant.organization.id, sessionVersion: 0 }, -60);
    await expectError(await apiClient(server.url(), expired)("/webhooks/deliveries"), 401, "unauthorized");

    const other = await createTenant();
    const foreign = apiClient(server.url(), other.userToken);
    await expectError(await foreign(`/webhooks/deliveries/${id}`), 404, "not_found");
    await expectError(await foreign(`/webhooks/deliveries/${id}/attempts`), 404, "not_found");
    await expectError(await foreign(`/webhooks/deliveries/${id}/redeliver`, { method: "POST" }), 404, "not_found");
    await expectError(await foreign("/webhooks/deliveries/dlv_nonsense"), 404, "not_found");
    expect(await expectStatus(await foreign("/webhooks/deliveries"), 200)).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it("answers 404 on the Inngest serve route when no Inngest keys are set", async () => {
    for (const method of ["GET", "POST", "PUT"]) {
      const response = await fetch(`${server.url()}/api/inngest`, { method });
      await expectError(response, 404, "not_found");
    }
  });
});
