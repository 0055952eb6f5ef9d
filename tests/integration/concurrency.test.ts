import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { idempotencyKeys, orderItems, orders, webhookDeliveries } from "@/db/schema";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { createIntegration } from "@/lib/webhooks/integrations";
import { expectError, expectStatus, ticketRow, type Api } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { insertCatalog } from "../support/order-fixtures";
import { useReceivers } from "../support/receiver";
import { useTestServer } from "../support/server";
import { waitForStatus } from "../support/webhooks";

interface OrderBody {
  id: string;
  status: string;
  items: { ticket_id: string; quantity: number }[];
}

/*
 * Real HTTP against the production build, many requests in flight at once. On PGlite the database runs
 * one statement at a time, so these check the HTTP and lock paths; with TEST_DATABASE_URL (CI) they run on
 * PostgreSQL with a pool of connections and real row-lock contention.
 */
describe("concurrent writes", () => {
  useTestDatabase();
  const server = useTestServer();
  const receiver = useReceivers();
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let api: Api;

  beforeEach(async () => {
    tenant = await createTenant();
    api = apiClient(server.url(), tenant.apiKey);
  });

  const orderBody = (eventId: string, ticketId: string, buyer: number, quantity = 1) => ({
    event_id: eventId,
    customer: { email: `buyer${buyer}@example.test`, name: `Buyer ${buyer}` },
    items: [{ ticket_id: ticketId, quantity }],
  });

  const statusCounts = (responses: Response[]) =>
    responses.reduce<Record<number, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});

  async function organizationRows() {
    const orgOrders = await db.select().from(orders).where(eq(orders.organizationId, tenant.organization.id));
    const items = orgOrders.length
      ? await db.select().from(orderItems).where(inArray(orderItems.orderId, orgOrders.map((o) => o.id)))
      : [];
    const deliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.organizationId, tenant.organization.id));
    return { orders: orgOrders, items, deliveries };
  }

  it("200 simultaneous orders for the last 50 tickets: 50 created, 150 conflicts, and rows for exactly the 50", async () => {
    const hooks = await receiver(() => ({ status: 204 }));
    await createIntegration({ organizationId: tenant.organization.id, url: hooks.url });
    const catalog = await insertCatalog(tenant.organization.id, { tickets: [{ quantityTotal: 80, quantitySold: 30 }] });
    const ticket = catalog.tickets[0]!;

    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => api("/v1/orders", { method: "POST", body: orderBody(catalog.eventId, ticket.id, i) })),
    );

    expect(statusCounts(responses)).toEqual({ 201: 50, 409: 150 });
    const created: OrderBody[] = [];
    for (const response of responses) {
      if (response.status === 201) created.push(await expectStatus<OrderBody>(response, 201));
      else await expectError(response, 409, "conflict");
    }
    expect(created.every((o) => o.status === "completed")).toBe(true);

    const after = await ticketRow(ticket.id);
    expect(after!.quantitySold).toBe(after!.quantityTotal);

    const rows = await organizationRows();
    const createdIds = created.map((o) => fromPublicId("order", o.id)!).sort();
    expect(rows.orders.map((o) => o.id).sort()).toEqual(createdIds);
    expect(new Set(rows.orders.map((o) => o.orderNumber)).size).toBe(50);
    expect(rows.items).toHaveLength(50);
    expect(rows.items.every((item) => item.quantity === 1 && item.ticketTypeId === ticket.row.id)).toBe(true);
    expect(rows.deliveries.map((d) => d.orderId).sort()).toEqual(createdIds);

    // Every committed order's webhook goes out exactly once (the receiver answers 204 at once).
    await Promise.all(rows.deliveries.map((d) => waitForStatus(d.id, ["Success"])));
    const deliveredIds = hooks.requests.map((r) => r.headers["x-webhook-delivery-id"]);
    expect(deliveredIds).toHaveLength(50);
    expect(new Set(deliveredIds)).toEqual(new Set(rows.deliveries.map((d) => toPublicId("delivery", d.id))));
  });

  it("20 simultaneous refunds of one order: one succeeds, 19 conflict, the tickets are released once", async () => {
    const catalog = await insertCatalog(tenant.organization.id, { tickets: [{ quantityTotal: 10 }] });
    const ticket = catalog.tickets[0]!;
    const order = await expectStatus<OrderBody>(
      await api("/v1/orders", { method: "POST", body: orderBody(catalog.eventId, ticket.id, 1, 3) }),
      201,
    );
    // A second order on the same ticket type must keep its tickets.
    await expectStatus(await api("/v1/orders", { method: "POST", body: orderBody(catalog.eventId, ticket.id, 2, 2) }), 201);
    expect((await ticketRow(ticket.id))!.quantitySold).toBe(5);

    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api(`/v1/orders/${order.id}/refund`, { method: "POST", body: { reason: `attempt ${i}` } })),
    );

    expect(statusCounts(responses)).toEqual({ 200: 1, 409: 19 });
    for (const response of responses) {
      if (response.status === 200) expect(await expectStatus<OrderBody>(response, 200)).toMatchObject({ id: order.id, status: "refunded" });
      else await expectError(response, 409, "conflict");
    }
    expect((await ticketRow(ticket.id))!.quantitySold).toBe(2);
    expect(await expectStatus<OrderBody>(await api(`/v1/orders/${order.id}`), 200)).toMatchObject({ status: "refunded" });
  });

  describe("Idempotency-Key under concurrent retries", () => {
    const KEY = "checkout-7f3a";

    async function post(client: Api, body: unknown) {
      return client("/v1/orders", { method: "POST", body, headers: { "Idempotency-Key": KEY } });
    }

    /**
     * Each answer to a retry is the original 201 (first or replayed, same order) or a 409 while the first is
     * still running; returns the order every 201 names.
     */
    async function settle(responses: Response[]) {
      const firstRuns = responses.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
      expect(firstRuns, JSON.stringify(statusCounts(responses))).toHaveLength(1);
      const bodies: OrderBody[] = [];
      for (const response of responses) {
        if (response.status === 201) bodies.push(await expectStatus<OrderBody>(response, 201));
        else await expectError(response, 409, "conflict");
      }
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      return bodies[0]!;
    }

    it("20 simultaneous retries create one order per key and organization; later retries replay it", async () => {
      const catalog = await insertCatalog(tenant.organization.id, { tickets: [{ quantityTotal: 100 }] });
      const ticket = catalog.tickets[0]!;
      const other = await createTenant();
      const otherApi = apiClient(server.url(), other.apiKey);
      const otherCatalog = await insertCatalog(other.organization.id, { tickets: [{ quantityTotal: 100 }] });
      const body = orderBody(catalog.eventId, ticket.id, 1, 2);
      const otherBody = orderBody(otherCatalog.eventId, otherCatalog.tickets[0]!.id, 1, 2);

      // The same key from another organization is a different key.
      const responses = await Promise.all([
        ...Array.from({ length: 20 }, () => post(api, body)),
        ...Array.from({ length: 20 }, () => post(otherApi, otherBody)),
      ]);
      const order = await settle(responses.slice(0, 20));
      const otherOrder = await settle(responses.slice(20));
      expect(otherOrder.id).not.toBe(order.id);

      const rows = await organizationRows();
      expect(rows.orders.map((o) => toPublicId("order", o.id))).toEqual([order.id]);
      expect(rows.items).toHaveLength(1);
      expect((await ticketRow(ticket.id))!.quantitySold).toBe(2);
      expect((await ticketRow(otherCatalog.tickets[0]!.id))!.quantitySold).toBe(2);

      const replay = await post(api, body);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(await expectStatus<OrderBody>(replay, 201)).toEqual(order);
      await expectError(await post(api, { ...body, customer: { email: "x@example.test", name: "X" } }), 409, "conflict");

      // Still within 24 hours: replayed. Past them the key is free and the request is new work.
      const age = (interval: string) =>
        db
          .update(idempotencyKeys)
          .set({ createdAt: sql`now() - ${interval}::interval` })
          .where(and(eq(idempotencyKeys.organizationId, tenant.organization.id), eq(idempotencyKeys.key, KEY)));
      await age("23 hours 59 minutes");
      expect(await expectStatus<OrderBody>(await post(api, body), 201)).toEqual(order);
      expect((await organizationRows()).orders).toHaveLength(1);
      await age("24 hours 1 minute");
      const fresh = await expectStatus<OrderBody>(await post(api, body), 201);
      expect(fresh.id).not.toBe(order.id);
      expect((await organizationRows()).orders).toHaveLength(2);
      expect((await ticketRow(ticket.id))!.quantitySold).toBe(4);
    });

    it("a claim left without a response by a request that died is taken over after a minute, not held for a day", async () => {
      const catalog = await insertCatalog(tenant.organization.id, { tickets: [{ quantityTotal: 10 }] });
      const body = orderBody(catalog.eventId, catalog.tickets[0]!.id, 1);
      // What a process killed between claiming the key and finishing the work leaves behind.
      const plantClaim = (age: string) =>
        db
          .insert(idempotencyKeys)
          .values({ organizationId: tenant.organization.id, key: KEY, requestHash: "claimed-by-a-dead-request" })
          .onConflictDoUpdate({
            target: [idempotencyKeys.organizationId, idempotencyKeys.key],
            set: { responseStatus: null, responseBody: null, createdAt: sql`now() - ${age}::interval` },
          });

      await plantClaim("10 seconds");
      await expectError(await post(api, body), 409, "conflict");
      expect((await organizationRows()).orders).toHaveLength(0);

      await plantClaim("61 seconds");
      const order = await expectStatus<OrderBody>(await post(api, body), 201);
      const replay = await post(api, body);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(await expectStatus<OrderBody>(replay, 201)).toEqual(order);
      expect((await organizationRows()).orders).toHaveLength(1);
    });
  });
});
