import { describe, expect, it } from "vitest";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { attemptDelivery } from "@/lib/webhooks/attempt";
import type { IntegrationJson as Integration } from "@/lib/webhooks/integrations";
import { verifyWebhook, webhookSignature } from "@/lib/webhooks/verify";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { expectError, expectStatus } from "../support/catalog";
import { useReceivers } from "../support/receiver";
import { attemptRows, deliveryRow, insertDelivery, waitForStatus } from "../support/webhooks";
import { useTestServer } from "../support/server";


describe("webhook integrations API", () => {
  useTestDatabase();
  const server = useTestServer();
  const receiver = useReceivers();

  async function tenantApi() {
    const tenant = await createTenant();
    return { tenant, api: apiClient(server.url(), tenant.userToken) };
  }

  it("creates, lists, shows, edits and reveals integrations; the secret only where asked for", async () => {
    const { api } = await tenantApi();
    const hook = await receiver(() => ({ status: 200 }));
    const response = await api("/webhooks/integrations", { method: "POST", body: { url: hook.url, description: " Accounting " } });
    const created = await expectStatus<Integration>(response, 201);
    expect(response.headers.get("location")).toBe(`/webhooks/integrations/${created.id}`);
    expect(created).toMatchObject({ events: ["OrderCompleted"], description: "Accounting", enabled: true, signed: true });
    expect(created.signing_secret).toMatch(/^whsec_/);

    const shown = await expectStatus<Integration>(await api(`/webhooks/integrations/${created.id}`), 200);
    const { signing_secret: secret, ...withoutSecret } = created;
    expect(shown).toEqual(withoutSecret);
    expect(await expectStatus(await api("/webhooks/integrations"), 200)).toEqual({ data: [withoutSecret] });
    expect(await expectStatus(await api(`/webhooks/integrations/${created.id}/secret`), 200)).toEqual({ signing_secret: secret });

    const edited = await expectStatus<Integration>(
      await api(`/webhooks/integrations/${created.id}`, {
        method: "PATCH",
        body: { url: `${hook.url}/v2`, events: ["OrderCompleted", "OrderRefunded"], description: "Books" },
      }),
      200,
    );
    expect(edited).toMatchObject({ url: `${hook.url}/v2`, events: ["OrderCompleted", "OrderRefunded"], description: "Books" });
    expect(edited).not.toHaveProperty("signing_secret");
  });

  it("refuses bad input with 400 and the field", async () => {
    const { api } = await tenantApi();
    const hook = await receiver(() => ({ status: 200 }));
    await expectError(await api("/webhooks/integrations", { method: "POST", body: {} }), 400, "validation_failed", ["url"]);
    await expectError(await api("/webhooks/integrations", { method: "POST", body: { url: "ftp://example.com/x" } }), 400, "validation_failed", ["url"]);
    await expectError(await api("/webhooks/integrations", { method: "POST", body: { url: hook.url, events: ["OrderShipped"] } }), 400, "validation_failed");
    await expectError(await api("/webhooks/integrations", { method: "POST", body: { url: hook.url, events: [] } }), 400, "validation_failed");
    await expectError(await api("/webhooks/integrations", { method: "POST", body: { url: hook.url, secret: "x" } }), 400, "validation_failed");
    const created = await expectStatus<Integration>(await api("/webhooks/integrations", { method: "POST", body: { url: hook.url } }), 201);
    const path = `/webhooks/integrations/${created.id}`;
    await expectError(await api(path, { method: "PATCH", body: { url: "http://user:pw@example.com/" } }), 400, "validation_failed", ["url"]);
    await expectError(await api(path, { method: "PATCH", body: { description: "x".repeat(501) } }), 400, "validation_failed");
    await expectError(await api(`${path}/rotate-secret`, { method: "POST", body: { expire_previous_in: 7 * 86_400 + 1 } }), 400, "validation_failed");
    await expectError(await api(`${path}/rotate-secret`, { method: "POST", body: { expire_previous_in: -1 } }), 400, "validation_failed");
    await expectError(await api(`${path}/rotate-secret`, { method: "POST", body: { expire_previous_in: "1 day" } }), 400, "validation_failed");
  });

  it("answers 404 for another organization's integrations and for malformed ids", async () => {
    const { api } = await tenantApi();
    const hook = await receiver(() => ({ status: 200 }));
    const created = await expectStatus<Integration>(await api("/webhooks/integrations", { method: "POST", body: { url: hook.url } }), 201);
    const { api: foreign } = await tenantApi();
    for (const id of [created.id, "int_nonsense"]) {
      const path = `/webhooks/integrations/${id}`;
      await expectError(await foreign(path), 404, "not_found");
      await expectError(await foreign(path, { method: "PATCH", body: { description: "mine" } }), 404, "not_found");
      await expectError(await foreign(path, { method: "DELETE" }), 404, "not_found");
      await expectError(await foreign(`${path}/secret`), 404, "not_found");
      await expectError(await foreign(`${path}/rotate-secret`, { method: "POST" }), 404, "not_found");
      await expectError(await foreign(`${path}/test`, { method: "POST" }), 404, "not_found");
    }
    expect(await expectStatus(await foreign("/webhooks/integrations"), 200)).toEqual({ data: [] });
    expect(await expectStatus<Integration>(await api(`/webhooks/integrations/${created.id}`), 200)).toMatchObject({ description: "" });
  });

  it("sends a test delivery that runs like a real one", async () => {
    const { api } = await tenantApi();
    const hook = await receiver(() => ({ status: 200 }));
    const created = await expectStatus<Integration>(await api("/webhooks/integrations", { method: "POST", body: { url: hook.url } }), 201);
    const response = await api(`/webhooks/integrations/${created.id}/test`, { method: "POST" });
    const delivery = await expectStatus<{ id: string; integration_id: string; event_type: string }>(response, 201);
    expect(response.headers.get("location")).toBe(`/webhooks/deliveries/${delivery.id}`);
    expect(delivery).toMatchObject({ integration_id: created.id, event_type: "OrderCompleted" });
    await waitForStatus(fromPublicId("delivery", delivery.id)!, ["Success"]);
    expect(() => verifyWebhook(hook.requests[0]!.body, hook.requests[0]!.headers, created.signing_secret!)).not.toThrow();
  });

  it("deletes softly: no further attempts, unfinished deliveries fail with a reason, history stays readable", async () => {
    const { tenant, api } = await tenantApi();
    const hook = await receiver(() => ({ status: 500 }));
    const created = await expectStatus<Integration>(await api("/webhooks/integrations", { method: "POST", body: { url: hook.url } }), 201);
    const failing = await insertDelivery(tenant.organization.id, created.id);
    await attemptDelivery(failing.id);
    const waiting = await insertDelivery(tenant.organization.id, created.id);
    expect((await deliveryRow(failing.id)).status).toBe("Failed");

    expect((await api(`/webhooks/integrations/${created.id}`, { method: "DELETE" })).status).toBe(204);
    await expectError(await api(`/webhooks/integrations/${created.id}`), 404, "not_found");
    await expectError(await api(`/webhooks/integrations/${created.id}`, { method: "DELETE" }), 404, "not_found");
    expect(await expectStatus(await api("/webhooks/integrations"), 200)).toEqual({ data: [] });

    for (const row of [failing, waiting]) {
      const after = await deliveryRow(row.id);
      expect(after.status).toBe("PermanentlyFailed");
      expect((await attemptRows(row.id)).at(-1)).toMatchObject({ errorMessage: "integration deleted", attemptNumber: after.attemptCount });
      expect(await attemptDelivery(row.id)).toMatchObject({ done: true, status: "PermanentlyFailed" });
      const shown = await expectStatus<{ status: string }>(await api(`/webhooks/deliveries/${toPublicId("delivery", row.id)}`), 200);
      expect(shown.status).toBe("PermanentlyFailed");
    }
    const attempts = await expectStatus<{ data: { error_message?: string; status_code?: number }[] }>(
      await api(`/webhooks/deliveries/${toPublicId("delivery", failing.id)}/attempts`),
      200,
    );
    expect(attempts.data.map((a) => a.error_message ?? a.status_code)).toEqual([500, "integration deleted"]);
    expect(hook.requests).toHaveLength(1);
  });

  it("rotates with an overlap: both secrets sign, newest first, then only the new one", async () => {
    const { api } = await tenantApi();
    const hook = await receiver(() => ({ status: 200 }));
    const created = await expectStatus<Integration>(await api("/webhooks/integrations", { method: "POST", body: { url: hook.url } }), 201);
    const path = `/webhooks/integrations/${created.id}`;

    const rotated = await expectStatus<Integration>(await api(`${path}/rotate-secret`, { method: "POST", body: { expire_previous_in: 2 } }), 200);
    expect(rotated.signing_secret).toMatch(/^whsec_/);
    expect(rotated.signing_secret).not.toBe(created.signing_secret);
    expect(Date.parse(rotated.previous_secret_expires_at!)).toBeGreaterThan(Date.now());
    expect(await expectStatus(await api(`${path}/secret`), 200)).toEqual({
      signing_secret: rotated.signing_secret,
      previous_signing_secret: created.signing_secret,
      previous_secret_expires_at: rotated.previous_secret_expires_at,
    });

    const during = await expectStatus<{ id: string }>(await api(`${path}/test`, { method: "POST" }), 201);
    await waitForStatus(fromPublicId("delivery", during.id)!, ["Success"]);
    const overlapped = hook.requests[0]!;
    expect(String(overlapped.headers["x-webhook-signature"])).toMatch(/^v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    for (const secret of [rotated.signing_secret!, created.signing_secret!]) {
      expect(() => verifyWebhook(overlapped.body, overlapped.headers, secret)).not.toThrow();
    }
    expect(String(overlapped.headers["x-webhook-signature"]).split(",")[0]).toBe(
      verifyHeaderFor(rotated.signing_secret!, overlapped),
    );

    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await expectStatus<Integration>(await api(path), 200)).not.toHaveProperty("previous_secret_expires_at");
    const after = await expectStatus<{ id: string }>(await api(`${path}/test`, { method: "POST" }), 201);
    await waitForStatus(fromPublicId("delivery", after.id)!, ["Success"]);
    const single = hook.requests[1]!;
    expect(String(single.headers["x-webhook-signature"])).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(() => verifyWebhook(single.body, single.headers, rotated.signing_secret!)).not.toThrow();
    expect(() => verifyWebhook(single.body, single.headers, created.signing_secret!)).toThrow();

    const immediate = await expectStatus<Integration>(await api(`${path}/rotate-secret`, { method: "POST" }), 200);
    expect(immediate).not.toHaveProperty("previous_secret_expires_at");
    expect(await expectStatus(await api(`${path}/secret`), 200)).toEqual({ signing_secret: immediate.signing_secret });
  });
});

function verifyHeaderFor(secret: string, request: { body: string; headers: Record<string, unknown> }): string {
  return webhookSignature(secret, String(request.headers["x-webhook-timestamp"]), request.body);
}
