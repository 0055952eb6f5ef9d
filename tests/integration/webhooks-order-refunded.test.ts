import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { fromPublicId } from "@/lib/ids";
import { refundOrder } from "@/lib/orders/refunds";
import { createIntegration } from "@/lib/webhooks/integrations";
import { verifyWebhook } from "@/lib/webhooks/verify";
import { expectStatus, type Api } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { insertCatalog } from "../support/order-fixtures";
import { useReceivers, type Receiver } from "../support/receiver";
import { useTestServer } from "../support/server";
import { waitForStatus } from "../support/webhooks";

describe("OrderRefunded webhooks", () => {
  useTestDatabase();
  const server = useTestServer();
  const receiver = useReceivers();
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let api: Api;
  let hook: Receiver;
  let completedOnly: Receiver;
  let secret: string;

  beforeEach(async () => {
    tenant = await createTenant();
    api = apiClient(server.url(), tenant.apiKey);
    hook = await receiver(() => ({ status: 200 }));
    completedOnly = await receiver(() => ({ status: 200 }));
    // One integration opted in to refunds, one that keeps the default (OrderCompleted only).
    const optedIn = await createIntegration({ organizationId: tenant.organization.id, url: hook.url, events: ["OrderCompleted", "OrderRefunded"] });
    await createIntegration({ organizationId: tenant.organization.id, url: completedOnly.url });
    secret = optedIn.signing_secret!;
  });

  async function buy(count = 1) {
    const catalog = await insertCatalog(tenant.organization.id);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const order = await expectStatus<{ id: string }>(
        await api("/v1/orders", {
          method: "POST",
          body: { event_id: catalog.eventId, customer: { email: "ada@example.test", name: "Ada" }, items: [{ ticket_id: catalog.tickets[0]!.id, quantity: 1 }] },
        }),
        201,
      );
      ids.push(order.id);
    }
    return { eventId: catalog.eventId, orderIds: ids };
  }

  /** Each order got exactly one OrderRefunded delivery, to the opted-in integration only, signed, with is_refunded true. */
  async function expectRefundedWebhooks(orderIds: string[]) {
    for (const publicId of orderIds) {
      const orderId = fromPublicId("order", publicId)!;
      const rows = await db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.orderId, orderId), eq(webhookDeliveries.eventType, "OrderRefunded")));
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.payload)).toMatchObject({ uuid: orderId, is_refunded: true });
      await waitForStatus(rows[0]!.id, ["Success"]);
    }
    const refunds = hook.requests.filter((r) => r.headers["x-webhook-event-type"] === "OrderRefunded");
    expect(refunds).toHaveLength(orderIds.length);
    expect(completedOnly.requests.filter((r) => r.headers["x-webhook-event-type"] === "OrderRefunded")).toEqual([]);
    for (const request of refunds) {
      expect(verifyWebhook<{ is_refunded: boolean }>(request.body, request.headers, secret).is_refunded).toBe(true);
    }
  }

  it("fires on a refund through the API", async () => {
    const { orderIds } = await buy();
    await expectStatus(await api(`/v1/orders/${orderIds[0]}/refund`, { method: "POST", body: { reason: "asked" } }), 200);
    await expectRefundedWebhooks(orderIds);
  });

  it("fires on a refund from the dashboard", async () => {
    const { orderIds } = await buy();
    // What the dashboard's refund action runs.
    await refundOrder(tenant.organization.id, fromPublicId("order", orderIds[0]!)!, "dashboard");
    await expectRefundedWebhooks(orderIds);
  });

  it("fires for every order when their event is cancelled", async () => {
    const { eventId, orderIds } = await buy(2);
    await expectStatus(await api(`/v1/events/${eventId}`, { method: "PATCH", body: { status: "cancelled" } }), 200);
    await expectRefundedWebhooks(orderIds);
  });

  it("fires for every order when their event is deleted", async () => {
    const { eventId, orderIds } = await buy(2);
    expect((await api(`/v1/events/${eventId}`, { method: "DELETE" })).status).toBe(204);
    await expectRefundedWebhooks(orderIds);
  });
});
