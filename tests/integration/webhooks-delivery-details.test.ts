import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { orders, webhookDeliveries } from "@/db/schema";
import { toPublicId } from "@/lib/ids";
import { createIntegration } from "@/lib/webhooks/integrations";
import { verifyWebhook } from "@/lib/webhooks/verify";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { expectError, expectStatus } from "../support/catalog";
import { useReceivers } from "../support/receiver";
import { completeOrder, insertDelivery, waitForStatus } from "../support/webhooks";
import { useTestServer } from "../support/server";

interface Delivery {
  id: string;
  status: string;
  order_id?: string;
  test: boolean;
  payload: Record<string, unknown>;
  redelivery_of?: string;
  redeliveries: string[];
}
interface Attempt {
  request_url: string;
  request_method: string;
  request_headers: Record<string, string>;
  response_headers: Record<string, string>;
  started_at: string;
  duration_ms: number;
  status_code: number;
  response_body: string;
  error_message?: string;
}
interface Page {
  data: { id: string }[];
  meta: { total: number };
}

describe("webhook deliveries: what was sent, finding deliveries, redelivery links", () => {
  useTestDatabase();
  const server = useTestServer();
  const receiver = useReceivers();

  it("keeps every request header as sent and at most 20 response headers with values cut at 500 characters", async () => {
    const longValue = "x".repeat(700);
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`X-Extra-${i}`, i === 0 ? longValue : `v${i}`]));
    const hook = await receiver(() => ({ status: 418, body: "teapot", headers: many }));
    const tenant = await createTenant();
    const integration = await createIntegration({ organizationId: tenant.organization.id, url: hook.url });
    const { orderId, deliveryIds } = await completeOrder(tenant.organization.id);
    const deliveryId = deliveryIds[0]!;
    await waitForStatus(deliveryId, ["Failed", "PermanentlyFailed"]);
    const api = apiClient(server.url(), tenant.userToken);
    const id = toPublicId("delivery", deliveryId);

    const delivery = await expectStatus<Delivery>(await api(`/webhooks/deliveries/${id}`), 200);
    expect(delivery.order_id).toBe(toPublicId("order", orderId));
    expect(delivery.test).toBe(false);
    // The payload is the exact body the receiver got.
    expect(delivery.payload).toEqual(JSON.parse(hook.requests[0]!.body));

    const { data } = await expectStatus<{ data: Attempt[] }>(await api(`/webhooks/deliveries/${id}/attempts`), 200);
    const first = data[0]!;
    const got = hook.requests[0]!.headers;
    expect(new URL(first.request_url).toString()).toBe(new URL(hook.url).toString());
    expect(first.request_method).toBe("POST");
    // Every header the receiver got, with the value it got (Node lower-cases received names).
    const sentLowerCased = Object.fromEntries(Object.entries(first.request_headers).map(([name, value]) => [name.toLowerCase(), value]));
    for (const name of ["content-type", "content-length", "user-agent", "x-webhook-delivery-id", "x-webhook-event-type", "x-webhook-attempt", "x-webhook-timestamp", "x-webhook-signature"]) {
      expect(sentLowerCased[name], name).toBe(got[name]);
    }
    expect(Object.keys(sentLowerCased).sort()).toEqual(Object.keys(got).filter((n) => n !== "host" && n !== "connection").sort());
    // The signature recorded verifies against the payload: it is what was sent, and no secret is in it.
    verifyWebhook(hook.requests[0]!.body, first.request_headers, integration.signing_secret!);
    expect(JSON.stringify(first)).not.toContain(integration.signing_secret!);

    expect(first.status_code).toBe(418);
    expect(first.response_body).toBe("teapot");
    expect(Object.keys(first.response_headers)).toHaveLength(20);
    expect(first.response_headers["x-extra-0"]).toBe("x".repeat(500));
    expect(first.response_headers["content-type"]).toBe("text/plain");
    const startedAt = Date.parse(first.started_at);
    expect(startedAt).toBeLessThanOrEqual(hook.requests[0]!.receivedAt);
    expect(first.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("marks test deliveries, which have no order_id", async () => {
    const hook = await receiver(() => ({ status: 200 }));
    const tenant = await createTenant();
    const integration = await createIntegration({ organizationId: tenant.organization.id, url: hook.url });
    // As the dashboard's "Send test delivery" writes it (that module needs the Next.js request context).
    const row = await insertDelivery(tenant.organization.id, integration.id, JSON.stringify({ order_source: "dashboard_test" }));
    await db.update(webhookDeliveries).set({ test: true }).where(eq(webhookDeliveries.id, row.id));
    const id = toPublicId("delivery", row.id);
    const api = apiClient(server.url(), tenant.userToken);
    const delivery = await expectStatus<Delivery>(await api(`/webhooks/deliveries/${id}`), 200);
    expect(delivery.test).toBe(true);
    expect(delivery).not.toHaveProperty("order_id");
    expect(delivery.payload).toMatchObject({ order_source: "dashboard_test" });
    const listed = await expectStatus<{ data: { id: string; test: boolean }[] }>(await api("/webhooks/deliveries"), 200);
    expect(listed.data).toEqual([expect.objectContaining({ id, test: true })]);
  });

  it("filters by statuses, integration, event type, order id or number and creation window; foreign ids match nothing", async () => {
    const okHook = await receiver(() => ({ status: 200 }));
    const badHook = await receiver(() => ({ status: 500 }));
    const tenant = await createTenant();
    await createIntegration({ organizationId: tenant.organization.id, url: okHook.url });
    const first = await completeOrder(tenant.organization.id);
    await waitForStatus(first.deliveryIds[0]!, ["Success"]);
    await db.update(webhookDeliveries).set({ createdAt: new Date("2026-01-01T02:30:00Z") }).where(eq(webhookDeliveries.id, first.deliveryIds[0]!));
    const bad = await createIntegration({ organizationId: tenant.organization.id, url: badHook.url });
    const second = await completeOrder(tenant.organization.id);
    const secondIds = second.deliveryIds;
    expect(secondIds).toHaveLength(2);
    await Promise.all(secondIds.map((id) => waitForStatus(id, ["Success", "PermanentlyFailed"], 60_000)));

    const other = await createTenant();
    const otherIntegration = await createIntegration({ organizationId: other.organization.id, url: okHook.url });
    const otherOrder = await completeOrder(other.organization.id);
    const [otherNumber] = await db.select({ n: orders.orderNumber }).from(orders).where(eq(orders.id, otherOrder.orderId));

    const api = apiClient(server.url(), tenant.userToken);
    const ids = async (query: string) => {
      const page = await expectStatus<Page>(await api(`/webhooks/deliveries?${query}`), 200);
      expect(page.meta.total).toBe(page.data.length);
      return page.data.map((d) => d.id).sort();
    };
    const pub = (id: string) => toPublicId("delivery", id);
    const all = [...first.deliveryIds, ...secondIds].map(pub).sort();
    expect(await ids("")).toEqual(all);

    const failed = await ids("status=PermanentlyFailed");
    expect(failed).toHaveLength(1);
    expect(await ids("status=Success")).toHaveLength(2);
    expect(await ids("status=Success,PermanentlyFailed")).toEqual(all);
    expect(await ids("status=Pending,InProgress")).toEqual([]);
    expect(await ids(`integration_id=${bad.id}`)).toEqual(failed);
    expect(await ids(`integration_id=${otherIntegration.id}`)).toEqual([]);
    expect(await ids("event_type=OrderCompleted")).toEqual(all);

    const [firstNumber] = await db.select({ n: orders.orderNumber }).from(orders).where(eq(orders.id, first.orderId));
    expect(await ids(`order_id=${toPublicId("order", first.orderId)}`)).toEqual([pub(first.deliveryIds[0]!)]);
    expect(await ids(`order_id=${firstNumber!.n}`)).toEqual([pub(first.deliveryIds[0]!)]);
    expect(await ids(`order_id=${toPublicId("order", second.orderId)}`)).toEqual(secondIds.map(pub).sort());
    // Another organization's order, by id or by number, matches nothing here.
    expect(await ids(`order_id=${toPublicId("order", otherOrder.orderId)}`)).toEqual([]);
    expect(await ids(`order_id=${otherNumber!.n}`)).toEqual([]);

    expect(await ids("created_from=2026-01-01T02:00:00Z&created_to=2026-01-01T04:00:00Z")).toEqual([pub(first.deliveryIds[0]!)]);
    expect(await ids("created_from=2026-01-01T02:31:00%2B00:00&created_to=2026-01-02")).toEqual([]);
    expect(await ids("created_to=2026-01-01")).toEqual([]);
    expect(await ids("created_from=2026-01-02")).toEqual(secondIds.map(pub).sort());
    expect(await ids(`status=PermanentlyFailed&integration_id=${bad.id}&order_id=${toPublicId("order", second.orderId)}`)).toEqual(failed);

    // Paging as before, with the filters.
    const paged = await expectStatus<Page & { meta: { page: number; per_page: number } }>(
      await api("/webhooks/deliveries?status=Success,PermanentlyFailed&per_page=2&page=2"),
      200,
    );
    expect(paged.meta).toEqual({ page: 2, per_page: 2, total: 3 });
    expect(paged.data).toHaveLength(1);

    // Malformed values are a 400 naming the parameter.
    await expectError(await api("/webhooks/deliveries?status=Success,Nope"), 400, "validation_failed", ["status"]);
    await expectError(await api("/webhooks/deliveries?status=,"), 400, "validation_failed", ["status"]);
    await expectError(await api("/webhooks/deliveries?event_type=OrderShipped"), 400, "validation_failed", ["event_type"]);
    await expectError(await api("/webhooks/deliveries?order_id=ord_nonsense"), 400, "validation_failed", ["order_id"]);
    await expectError(await api("/webhooks/deliveries?order_id=12.5"), 400, "validation_failed", ["order_id"]);
    await expectError(await api("/webhooks/deliveries?created_from=yesterday"), 400, "validation_failed", ["created_from"]);
    await expectError(await api("/webhooks/deliveries?created_to=2026-13-01"), 400, "validation_failed", ["created_to"]);
    await expectError(
      await api("/webhooks/deliveries?created_from=2026-01-02&created_to=2026-01-01"),
      400,
      "validation_failed",
      ["created_to"],
    );
  });

  it("links a redelivery both ways and sends X-Webhook-Redelivery-Of with the original id", async () => {
    const hook = await receiver(() => ({ status: 200 }));
    const tenant = await createTenant();
    await createIntegration({ organizationId: tenant.organization.id, url: hook.url });
    const { deliveryIds } = await completeOrder(tenant.organization.id);
    await waitForStatus(deliveryIds[0]!, ["Success"]);
    const api = apiClient(server.url(), tenant.userToken);
    const original = toPublicId("delivery", deliveryIds[0]!);
    expect(hook.requests[0]!.headers).not.toHaveProperty("x-webhook-redelivery-of");

    const again = await expectStatus<Delivery>(await api(`/webhooks/deliveries/${original}/redeliver`, { method: "POST" }), 201);
    const twice = await expectStatus<Delivery>(await api(`/webhooks/deliveries/${original}/redeliver`, { method: "POST" }), 201);
    await expect.poll(() => hook.requests.length, { timeout: 15_000 }).toBe(3);
    const resent = hook.requests.slice(1);
    expect(resent.map((r) => r.headers["x-webhook-redelivery-of"])).toEqual([original, original]);
    expect(resent.map((r) => r.headers["x-webhook-delivery-id"]).sort()).toEqual([again.id, twice.id].sort());
    expect(resent.every((r) => r.body === hook.requests[0]!.body)).toBe(true);

    const originalNow = await expectStatus<Delivery>(await api(`/webhooks/deliveries/${original}`), 200);
    expect(originalNow.redeliveries).toEqual([again.id, twice.id]);
    const redelivery = await expectStatus<Delivery>(await api(`/webhooks/deliveries/${again.id}`), 200);
    expect(redelivery.redelivery_of).toBe(original);
    expect(redelivery.redeliveries).toEqual([]);
    expect(redelivery.order_id).toBe(originalNow.order_id);
    expect(redelivery.payload).toEqual(originalNow.payload);
    const attempts = await expectStatus<{ data: Attempt[] }>(await api(`/webhooks/deliveries/${again.id}/attempts`), 200);
    expect(attempts.data[0]!.request_headers["X-Webhook-Redelivery-Of"]).toBe(original);

    // Another organization sees neither the delivery nor its links.
    const other = await createTenant();
    await expectError(await apiClient(server.url(), other.userToken)(`/webhooks/deliveries/${again.id}`), 404, "not_found");
  });
});
