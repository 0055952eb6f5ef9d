import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { orders, ticketTypes, webhookDeliveries } from "@/db/schema";
import { ticketTypeColumns } from "@/lib/catalog/ticket-types";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { refundCompletedOrdersOfEvent } from "@/lib/orders/refunds";
import { createIntegration } from "@/lib/webhooks/integrations";
import { expectError, expectStatus } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { insertCampaign, insertCatalog, insertOrders } from "../support/order-fixtures";
import { useReceivers } from "../support/receiver";
import { useTestServer } from "../support/server";
import { waitForStatus } from "../support/webhooks";

type Api = ReturnType<typeof apiClient>;
interface OrderBody {
  id: string;
  status: string;
  total: number;
  original_price: number;
  currency: string;
  order_number: number;
  event_id: string;
  items: { ticket_id: string; ticket_name: string; quantity: number; unit_price: number }[];
  customer: { email: string; name: string; phone_number?: string };
  created_at: string;
  refund_reason?: string;
  refunded_at?: string;
}

const HOUR = 3_600_000;

async function soldOf(ticketTypeId: string) {
  const [row] = await db.select(ticketTypeColumns).from(ticketTypes).where(eq(ticketTypes.id, ticketTypeId));
  return row!.quantitySold;
}

describe("/v1/orders", () => {
  useTestDatabase();
  const server = useTestServer();
  const receiver = useReceivers();
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let api: Api;

  beforeEach(async () => {
    tenant = await createTenant({ currency: "EUR" });
    api = apiClient(server.url(), tenant.apiKey);
  });

  const orderBody = (eventId: string, items: { ticket_id: string; quantity: number }[], extra: Record<string, unknown> = {}) => ({
    event_id: eventId,
    customer: { email: "ada@example.test", name: "Ada Lovelace" },
    items,
    ...extra,
  });

  describe("POST /v1/orders", () => {
    it("creates a completed order priced from the ticket types, with the campaign discount and VAT recorded", async () => {
      const catalog = await insertCatalog(tenant.organization.id, {
        eventName: "Jazz night",
        tickets: [
          { name: "Standing", price: 45_000, vatPercent: 6, quantityTotal: 10 },
          { name: "Seated", price: 60_000, vatPercent: 12, category: "Seating", quantityTotal: 10 },
        ],
      });
      const [standing, seated] = catalog.tickets;
      const campaign = await insertCampaign(tenant.organization.id, { code: "Spring", discountKind: "percent", discountValue: 10 });
      const hook = await receiver(() => ({ status: 204 }));
      await createIntegration({ organizationId: tenant.organization.id, url: hook.url });

      const response = await api("/v1/orders", {
        method: "POST",
        body: orderBody(
          catalog.eventId,
          [
            { ticket_id: standing!.id, quantity: 2 },
            { ticket_id: seated!.id, quantity: 1 },
          ],
          {
            customer: { email: "ada@example.test", name: "Ada Lovelace", phone_number: "+46701234567" },
            campaign_code: "sPrInG",
            payment_method: "card",
            payment_method_brand: "visa",
            order_source: "box_office",
          },
        ),
      });
      const order = await expectStatus<OrderBody>(response, 201);
      expect(order).toEqual({
        id: expect.stringMatching(/^ord_[0-9a-f]{32}$/),
        status: "completed",
        total: 135_000,
        original_price: 150_000,
        currency: "EUR",
        order_number: 1,
        event_id: catalog.eventId,
        items: expect.arrayContaining([
          { ticket_id: standing!.id, ticket_name: "Standing", quantity: 2, unit_price: 45_000 },
          { ticket_id: seated!.id, ticket_name: "Seated", quantity: 1, unit_price: 60_000 },
        ]),
        customer: { email: "ada@example.test", name: "Ada Lovelace", phone_number: "+46701234567" },
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
      expect(order.items).toHaveLength(2);
      expect(await soldOf(standing!.row.id)).toBe(2);
      expect(await soldOf(seated!.row.id)).toBe(1);

      // The transactions model of the same order shows VAT, category, campaign and payment details.
      const search = await expectStatus<{ data: { orders: Record<string, unknown>[] } }>(
        await api("/analytics_search/api/transactions"),
        200,
      );
      expect(search.data.orders).toEqual([
        expect.objectContaining({
          uuid: fromPublicId("order", order.id),
          payment_method: "card",
          payment_method_brand: "visa",
          order_source: "box_office",
          phone_number: "+46701234567",
          cart: expect.objectContaining({
            total_price: 135_000,
            original_price: 150_000,
            campaigns: [{ uuid: campaign.id, name: "Spring sale", code: "Spring", discount_amount: 15_000 }],
            items: expect.arrayContaining([
              expect.objectContaining({ name: "Seated", vat: 12, category: "Seating", price: 60_000, quantity: 1, event_name: "Jazz night" }),
              expect.objectContaining({ name: "Standing", vat: 6, category: "Admission", price: 45_000, quantity: 2 }),
            ]),
          }),
        }),
      ]);

      const fetched = await expectStatus<OrderBody>(await api(`/v1/orders/${order.id}`), 200);
      expect(fetched).toEqual(order);

      // The OrderCompleted webhook, built from the rows the order's transaction wrote, is that same transactions model.
      const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.orderId, fromPublicId("order", order.id)!));
      await waitForStatus(delivery!.id, ["Success"]);
      expect(JSON.parse(delivery!.payload)).toEqual(search.data.orders[0]);
      expect(JSON.parse(hook.requests[0]!.body)).toEqual(search.data.orders[0]);
    });

    it("sends in the OrderCompleted payload exactly what the buyer wrote, even text that looks like the payload's own slots", async () => {
      // place_order fills the order's id, number, created_at and currency into a format() template of the payload.
      const tricky = `Ada "uuid":"" %1$s 100%% "created_at":"","currency":"" %`;
      const catalog = await insertCatalog(tenant.organization.id, { eventName: `50% off "order_number":0,`, tickets: [{ name: `%s %4$s` }] });
      await insertCampaign(tenant.organization.id, { code: "PCT", name: '{"uuid":""', discountKind: "percent", discountValue: 10 });
      const hook = await receiver(() => ({ status: 204 }));
      await createIntegration({ organizationId: tenant.organization.id, url: hook.url });

      const order = await expectStatus<OrderBody>(
        await api("/v1/orders", {
          method: "POST",
          body: orderBody(catalog.eventId, [{ ticket_id: catalog.tickets[0]!.id, quantity: 1 }], {
            customer: { email: "ada@example.test", name: tricky },
            campaign_code: "pct",
            order_source: "%%",
          }),
        }),
        201,
      );

      const search = await expectStatus<{ data: { orders: Record<string, unknown>[] } }>(await api("/analytics_search/api/transactions"), 200);
      expect(search.data.orders[0]).toMatchObject({ customer_name: tricky, order_source: "%%", order_number: order.order_number, created_at: order.created_at });
      const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.orderId, fromPublicId("order", order.id)!));
      expect(JSON.parse(delivery!.payload)).toEqual(search.data.orders[0]);
    });

    it("caps an amount discount at the order total, defaults payment fields and numbers orders in sequence", async () => {
      const catalog = await insertCatalog(tenant.organization.id, { tickets: [{ price: 1_000 }] });
      await insertCampaign(tenant.organization.id, { code: "FREE", discountKind: "amount", discountValue: 5_000 });
      const ticket = catalog.tickets[0]!.id;
      const first = await expectStatus<OrderBody>(
        await api("/v1/orders", { method: "POST", body: orderBody(catalog.eventId, [{ ticket_id: ticket, quantity: 2 }], { campaign_code: "free" }) }),
        201,
      );
      expect(first).toMatchObject({ total: 0, original_price: 2_000, order_number: 1 });
      expect(first.customer).not.toHaveProperty("phone_number");
      const second = await expectStatus<OrderBody>(
        await api("/v1/orders", { method: "POST", body: orderBody(catalog.eventId, [{ ticket_id: ticket, quantity: 1 }]) }),
        201,
      );
      expect(second).toMatchObject({ total: 1_000, original_price: 1_000, order_number: 2 });
      const [row] = await db.select().from(orders).where(eq(orders.id, fromPublicId("order", second.id)!));
      expect(row).toMatchObject({ paymentMethod: "unspecified", paymentMethodBrand: "unspecified", orderSource: "api" });
    });

    it("rejects malformed bodies and unknown references with 400 details naming the field", async () => {
      const catalog = await insertCatalog(tenant.organization.id);
      const other = await insertCatalog(tenant.organization.id);
      const ticket = catalog.tickets[0]!.id;
      const post = (body: unknown) => api("/v1/orders", { method: "POST", body });

      await expectError(await post({}), 400, "validation_failed", ["event_id", "customer", "items"]);
      await expectError(
        await post(orderBody(catalog.eventId, [{ ticket_id: ticket, quantity: 1 }], { extra: true })),
        400,
        "validation_failed",
        ["extra"],
      );
      await expectError(
        await post(orderBody(catalog.eventId, [{ ticket_id: ticket, quantity: 0 }])),
        400,
        "validation_failed",
        ["items.0.quantity"],
      );
      await expectError(
        await post(orderBody(catalog.eventId, [{ ticket_id: ticket, quantity: 101 }])),
        400,
        "validation_failed",
        ["items.0.quantity"],
      );
      await expectError(await post(orderBody(catalog.eventId, [])), 400, "validation_failed", ["items"]);
      await expectError(
        await post(orderBody(catalog.eventId, [{ ticket_id: ticket, quantity: 1 }, { ticket_id: ticket, quantity: 2 }])),
        400,
        "validation_failed",
        ["items.1.ticket_id"],
      );
      await expectError(
        await post(orderBody(catalog.eventId, [{ ticket_id: ticket, quantity: 1 }], { customer: { email: "nope", name: "" } })),
        400,
        "validation_failed",
        ["customer.email", "customer.name"],
      );
      await expectError(
        await post(orderBody("evt_nonsense", [{ ticket_id: ticket, quantity: 1 }])),
        400,
        "validation_failed",
        ["event_id"],
      );
      await expectError(
        await post(orderBody(toPublicId("event", crypto.randomUUID()), [{ ticket_id: ticket, quantity: 1 }])),
        400,
        "validation_failed",
        ["event_id"],
      );
      // A ticket of another event, and a malformed ticket id: both named.
      await expectError(
        await post(
          orderBody(catalog.eventId, [
            { ticket_id: other.tickets[0]!.id, quantity: 1 },
            { ticket_id: "tkt_bad", quantity: 1 },
          ]),
        ),
        400,
        "validation_failed",
        ["items.0.ticket_id", "items.1.ticket_id"],
      );
      await expectError(
        await post(orderBody(catalog.eventId, [{ ticket_id: ticket, quantity: 1 }], { campaign_code: "NOPE" })),
        400,
        "validation_failed",
        ["campaign_code"],
      );
      await insertCampaign(tenant.organization.id, { code: "OLD", active: false });
      await expectError(
        await post(orderBody(catalog.eventId, [{ ticket_id: ticket, quantity: 1 }], { campaign_code: "OLD" })),
        400,
        "validation_failed",
        ["campaign_code"],
      );
      expect(await soldOf(catalog.tickets[0]!.row.id)).toBe(0);
    });

    it("treats another organization's event, ticket and campaign as unknown", async () => {
      const stranger = await createTenant({ currency: "EUR" });
      const theirs = await insertCatalog(stranger.organization.id);
      await insertCampaign(stranger.organization.id, { code: "THEIRS" });
      const mine = await insertCatalog(tenant.organization.id);
      await expectError(
        await api("/v1/orders", { method: "POST", body: orderBody(theirs.eventId, [{ ticket_id: theirs.tickets[0]!.id, quantity: 1 }]) }),
        400,
        "validation_failed",
        ["event_id"],
      );
      await expectError(
        await api("/v1/orders", { method: "POST", body: orderBody(mine.eventId, [{ ticket_id: theirs.tickets[0]!.id, quantity: 1 }]) }),
        400,
        "validation_failed",
        ["items.0.ticket_id"],
      );
      await expectError(
        await api("/v1/orders", {
          method: "POST",
          body: orderBody(mine.eventId, [{ ticket_id: mine.tickets[0]!.id, quantity: 1 }], { campaign_code: "THEIRS" }),
        }),
        400,
        "validation_failed",
        ["campaign_code"],
      );
      expect(await soldOf(theirs.tickets[0]!.row.id)).toBe(0);
    });

    it("answers 409 for an unpublished or cancelled event, a ticket not on sale, and overselling", async () => {
      for (const eventStatus of ["draft", "cancelled"] as const) {
        const catalog = await insertCatalog(tenant.organization.id, { eventStatus });
        await expectError(
          await api("/v1/orders", { method: "POST", body: orderBody(catalog.eventId, [{ ticket_id: catalog.tickets[0]!.id, quantity: 1 }]) }),
          409,
          "conflict",
        );
      }
      const now = Date.now();
      const catalog = await insertCatalog(tenant.organization.id, {
        tickets: [
          { name: "Early", saleStartsAt: new Date(now - 48 * HOUR), saleEndsAt: new Date(now - HOUR) },
          { name: "Later", saleStartsAt: new Date(now + HOUR), saleEndsAt: new Date(now + 48 * HOUR) },
          { name: "Gone", cancelledAt: new Date(now - HOUR) },
          { name: "Scarce", quantityTotal: 3, quantitySold: 1 },
        ],
      });
      for (const ticket of catalog.tickets.slice(0, 3)) {
        const body = await expectError(
          await api("/v1/orders", { method: "POST", body: orderBody(catalog.eventId, [{ ticket_id: ticket.id, quantity: 1 }]) }),
          409,
          "conflict",
        );
        expect(body.error).toMatch(/not on sale/);
      }
      const scarce = catalog.tickets[3]!;
      await expectError(
        await api("/v1/orders", { method: "POST", body: orderBody(catalog.eventId, [{ ticket_id: scarce.id, quantity: 3 }]) }),
        409,
        "conflict",
      );
      expect(await soldOf(scarce.row.id)).toBe(1);
      await expectStatus(
        await api("/v1/orders", { method: "POST", body: orderBody(catalog.eventId, [{ ticket_id: scarce.id, quantity: 2 }]) }),
        201,
      );
      expect(await soldOf(scarce.row.id)).toBe(3);
    });

    it("rolls back every ticket of an order when one line would oversell", async () => {
      const catalog = await insertCatalog(tenant.organization.id, {
        tickets: [{ quantityTotal: 10 }, { quantityTotal: 1 }],
      });
      const [plenty, scarce] = catalog.tickets;
      await expectError(
        await api("/v1/orders", {
          method: "POST",
          body: orderBody(catalog.eventId, [
            { ticket_id: plenty!.id, quantity: 5 },
            { ticket_id: scarce!.id, quantity: 2 },
          ]),
        }),
        409,
        "conflict",
      );
      expect(await soldOf(plenty!.row.id)).toBe(0);
      expect(await db.$count(orders)).toBe(0);
    });

    it("never oversells under concurrent orders: 30 parallel orders for 10 remaining tickets sell exactly 10", async () => {
      const catalog = await insertCatalog(tenant.organization.id, { tickets: [{ quantityTotal: 15, quantitySold: 5 }] });
      const ticket = catalog.tickets[0]!;
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          api("/v1/orders", {
            method: "POST",
            body: orderBody(catalog.eventId, [{ ticket_id: ticket.id, quantity: 1 }], {
              customer: { email: `buyer${i}@example.test`, name: `Buyer ${i}` },
            }),
          }),
        ),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(10);
      expect(statuses.filter((s) => s === 409)).toHaveLength(20);
      expect(await soldOf(ticket.row.id)).toBe(15);
      const rows = await db.select().from(orders).where(eq(orders.organizationId, tenant.organization.id));
      expect(rows).toHaveLength(10);
      expect(new Set(rows.map((r) => r.orderNumber)).size).toBe(10);
    });

    it("requires orders:write", async () => {
      const readOnly = await createTenant({ scopes: ["orders:read"] });
      const catalog = await insertCatalog(readOnly.organization.id);
      const body = await expectError(
        await apiClient(server.url(), readOnly.apiKey)("/v1/orders", {
          method: "POST",
          body: orderBody(catalog.eventId, [{ ticket_id: catalog.tickets[0]!.id, quantity: 1 }]),
        }),
        403,
        "forbidden",
      );
      expect(body.error).toBe("Insufficient permissions. Required scope: orders:write");
      expect(await soldOf(catalog.tickets[0]!.row.id)).toBe(0);
    });
  });

  describe("GET /v1/orders and /v1/orders/:id", () => {
    it("lists newest first with ties broken by id, paginates with meta, and filters by event and status", async () => {
      const first = await insertCatalog(tenant.organization.id);
      const second = await insertCatalog(tenant.organization.id);
      const same = new Date("2026-01-01T10:00:00Z");
      const a = await insertOrders(tenant.organization.id, first.event, first.tickets[0]!.row, [
        { createdAt: same },
        { createdAt: same },
        { createdAt: same, status: "refunded" },
        { createdAt: new Date("2026-01-02T10:00:00Z") },
      ]);
      const b = await insertOrders(tenant.organization.id, second.event, second.tickets[0]!.row, [
        { createdAt: new Date("2025-12-31T10:00:00Z"), status: "cancelled" },
      ]);
      const stranger = await createTenant();
      const theirs = await insertCatalog(stranger.organization.id);
      await insertOrders(stranger.organization.id, theirs.event, theirs.tickets[0]!.row, [{}, {}]);

      const tied = a.slice(0, 3).map((r) => r.id).sort().reverse();
      const expected = [a[3]!.id, ...tied, b[0]!.id].map((id) => toPublicId("order", id));

      const all = await expectStatus<{ data: OrderBody[]; meta: unknown }>(await api("/v1/orders"), 200);
      expect(all.meta).toEqual({ page: 1, per_page: 25, total: 5 });
      expect(all.data.map((o) => o.id)).toEqual(expected);
      expect(all.data[0]).toEqual({
        id: expected[0],
        status: "completed",
        total: 45_000,
        original_price: 45_000,
        currency: "EUR",
        order_number: 4,
        event_id: first.eventId,
        items: [{ ticket_id: first.tickets[0]!.id, ticket_name: "Ticket 1", quantity: 1, unit_price: 45_000 }],
        customer: { email: "customer3@example.test", name: "Customer 3" },
        created_at: "2026-01-02T10:00:00.000Z",
      });

      const pages: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const body = await expectStatus<{ data: OrderBody[]; meta: unknown }>(await api(`/v1/orders?page=${page}&per_page=2`), 200);
        expect(body.meta).toEqual({ page, per_page: 2, total: 5 });
        pages.push(...body.data.map((o) => o.id));
      }
      expect(pages).toEqual(expected);
      const beyond = await expectStatus<{ data: OrderBody[]; meta: unknown }>(await api("/v1/orders?page=9&per_page=2"), 200);
      expect(beyond).toEqual({ data: [], meta: { page: 9, per_page: 2, total: 5 } });

      const byEvent = await expectStatus<{ data: OrderBody[]; meta: { total: number } }>(
        await api(`/v1/orders?event_id=${second.eventId}`),
        200,
      );
      expect(byEvent.data.map((o) => o.id)).toEqual([toPublicId("order", b[0]!.id)]);
      const refunded = await expectStatus<{ data: OrderBody[]; meta: { total: number } }>(await api("/v1/orders?status=refunded"), 200);
      expect(refunded.data.map((o) => o.id)).toEqual([toPublicId("order", a[2]!.id)]);
      expect(refunded.meta.total).toBe(1);
      const both = await expectStatus<{ data: OrderBody[] }>(await api(`/v1/orders?status=completed&event_id=${first.eventId}`), 200);
      expect(both.data).toHaveLength(3);
      const foreignEvent = await expectStatus<{ data: OrderBody[]; meta: { total: number } }>(
        await api(`/v1/orders?event_id=${theirs.eventId}`),
        200,
      );
      expect(foreignEvent).toMatchObject({ data: [], meta: { total: 0 } });
    });

    it("rejects bad list parameters with 400 details", async () => {
      for (const [query, path] of [
        ["page=0", "page"],
        ["page=abc", "page"],
        ["per_page=0", "per_page"],
        ["per_page=101", "per_page"],
        ["per_page=2.5", "per_page"],
        ["status=shipped", "status"],
        ["event_id=nope", "event_id"],
      ] as const) {
        await expectError(await api(`/v1/orders?${query}`), 400, "validation_failed", [path]);
      }
      await expectStatus(await api("/v1/orders?per_page=100&unknown=1"), 200);
    });

    it("answers 404 for unknown, malformed and other organizations' order ids", async () => {
      const stranger = await createTenant();
      const theirs = await insertCatalog(stranger.organization.id);
      const [order] = await insertOrders(stranger.organization.id, theirs.event, theirs.tickets[0]!.row, [{}]);
      for (const id of [toPublicId("order", order!.id), toPublicId("order", crypto.randomUUID()), "ord_123", order!.id, toPublicId("event", order!.id)]) {
        await expectError(await api(`/v1/orders/${id}`), 404, "not_found");
        await expectError(await api(`/v1/orders/${id}/refund`, { method: "POST", body: {} }), 404, "not_found");
      }
      const own = await expectStatus<OrderBody>(
        await apiClient(server.url(), stranger.apiKey)(`/v1/orders/${toPublicId("order", order!.id)}`),
        200,
      );
      expect(own.status).toBe("completed");
    });

    it("requires orders:read", async () => {
      const noOrders = await createTenant({ scopes: ["events:read", "orders:write"] });
      const client = apiClient(server.url(), noOrders.apiKey);
      const body = await expectError(await client("/v1/orders"), 403, "forbidden");
      expect(body.error).toBe("Insufficient permissions. Required scope: orders:read");
      await expectError(await client(`/v1/orders/${toPublicId("order", crypto.randomUUID())}`), 403, "forbidden");
      await expectError(await apiClient(server.url(), "sk_wrong")("/v1/orders"), 401, "unauthorized");
    });
  });

  describe("POST /v1/orders/:id/refund", () => {
    async function buy(quantity: number) {
      const catalog = await insertCatalog(tenant.organization.id, { tickets: [{ quantityTotal: 10 }] });
      const order = await expectStatus<OrderBody>(
        await api("/v1/orders", { method: "POST", body: orderBody(catalog.eventId, [{ ticket_id: catalog.tickets[0]!.id, quantity }]) }),
        201,
      );
      return { catalog, order, ticketTypeId: catalog.tickets[0]!.row.id };
    }

    it("refunds once: 200 with the refunded order and its tickets released, then 409", async () => {
      const { order, ticketTypeId } = await buy(3);
      expect(await soldOf(ticketTypeId)).toBe(3);
      const refunded = await expectStatus<OrderBody>(
        await api(`/v1/orders/${order.id}/refund`, { method: "POST", body: { reason: "customer request" } }),
        200,
      );
      expect(refunded).toEqual({
        ...order,
        status: "refunded",
        refund_reason: "customer request",
        refunded_at: expect.stringMatching(/Z$/),
      });
      expect(await soldOf(ticketTypeId)).toBe(0);
      await expectError(await api(`/v1/orders/${order.id}/refund`, { method: "POST", body: {} }), 409, "conflict");
      expect(await soldOf(ticketTypeId)).toBe(0);

      const search = await expectStatus<{ data: { orders: { is_refunded: boolean; refund_reason?: string }[] } }>(
        await api("/analytics_search/api/transactions?is_refunded=true"),
        200,
      );
      expect(search.data.orders).toMatchObject([{ is_refunded: true, refund_reason: "customer request" }]);
    });

    it("refunds without a body or reason, and refuses cancelled orders with 409", async () => {
      const { order } = await buy(1);
      const refunded = await expectStatus<OrderBody>(await api(`/v1/orders/${order.id}/refund`, { method: "POST" }), 200);
      expect(refunded.status).toBe("refunded");
      expect(refunded).not.toHaveProperty("refund_reason");
      const { order: second } = await buy(1);
      const blank = await api(`/v1/orders/${second.id}/refund`, { method: "POST", body: { reason: "" } });
      expect(await expectStatus<OrderBody>(blank, 200)).not.toHaveProperty("refund_reason");

      const catalog = await insertCatalog(tenant.organization.id);
      const [cancelled] = await insertOrders(tenant.organization.id, catalog.event, catalog.tickets[0]!.row, [{ status: "cancelled" }]);
      await expectError(
        await api(`/v1/orders/${toPublicId("order", cancelled!.id)}/refund`, { method: "POST", body: {} }),
        409,
        "conflict",
      );
    });

    it("validates the body strictly", async () => {
      const { order } = await buy(1);
      await expectError(
        await api(`/v1/orders/${order.id}/refund`, { method: "POST", body: { reason: "x".repeat(501) } }),
        400,
        "validation_failed",
        ["reason"],
      );
      await expectError(
        await api(`/v1/orders/${order.id}/refund`, { method: "POST", body: { reason: "ok", amount: 5 } }),
        400,
        "validation_failed",
        ["amount"],
      );
      await expectError(await api(`/v1/orders/${order.id}/refund`, { method: "POST", body: { reason: 5 } }), 400, "validation_failed", ["reason"]);
      await expectStatus(await api(`/v1/orders/${order.id}/refund`, { method: "POST", body: { reason: "x".repeat(500) } }), 200);
    });

    it("refunds an order exactly once under concurrent refunds", async () => {
      const { order, ticketTypeId } = await buy(4);
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => api(`/v1/orders/${order.id}/refund`, { method: "POST", body: { reason: "dup" } })),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(9);
      expect(await soldOf(ticketTypeId)).toBe(0);
    });

    it("requires orders:write", async () => {
      const { order, ticketTypeId } = await buy(1);
      const readOnly = await createTenant({ scopes: ["orders:read"] });
      await expectError(
        await apiClient(server.url(), readOnly.apiKey)(`/v1/orders/${order.id}/refund`, { method: "POST", body: {} }),
        403,
        "forbidden",
      );
      expect(await soldOf(ticketTypeId)).toBe(1);
    });
  });

  it("refundCompletedOrdersOfEvent refunds only the event's completed orders and releases their tickets", async () => {
    const catalog = await insertCatalog(tenant.organization.id, { tickets: [{ quantityTotal: 20 }, { quantityTotal: 20 }] });
    const other = await insertCatalog(tenant.organization.id);
    const [t1, t2] = catalog.tickets;
    const bought: OrderBody[] = [];
    for (const items of [
      [{ ticket_id: t1!.id, quantity: 2 }],
      [{ ticket_id: t1!.id, quantity: 1 }, { ticket_id: t2!.id, quantity: 3 }],
      [{ ticket_id: t2!.id, quantity: 1 }],
    ]) {
      bought.push(await expectStatus<OrderBody>(await api("/v1/orders", { method: "POST", body: orderBody(catalog.eventId, items) }), 201));
    }
    await expectStatus(await api(`/v1/orders/${bought[2]!.id}/refund`, { method: "POST", body: { reason: "earlier" } }), 200);
    const elsewhere = await expectStatus<OrderBody>(
      await api("/v1/orders", { method: "POST", body: orderBody(other.eventId, [{ ticket_id: other.tickets[0]!.id, quantity: 1 }]) }),
      201,
    );

    const { refunded: count } = await db.transaction((tx) =>
      refundCompletedOrdersOfEvent(tx, tenant.organization.id, catalog.event.id, "event_deleted"),
    );
    expect(count).toBe(2);
    expect(await soldOf(t1!.row.id)).toBe(0);
    expect(await soldOf(t2!.row.id)).toBe(0);
    expect(await soldOf(other.tickets[0]!.row.id)).toBe(1);

    const statuses = await Promise.all(
      [...bought, elsewhere].map(async (o) => expectStatus<OrderBody>(await api(`/v1/orders/${o.id}`), 200)),
    );
    expect(statuses.map((o) => [o.status, o.refund_reason])).toEqual([
      ["refunded", "event_deleted"],
      ["refunded", "event_deleted"],
      ["refunded", "earlier"],
      ["completed", undefined],
    ]);
    // Nothing left to refund: a second call is a no-op.
    expect((await db.transaction((tx) => refundCompletedOrdersOfEvent(tx, tenant.organization.id, catalog.event.id, "again"))).refunded).toBe(0);
  });
  it("refunds each order once when an event withdrawal races single refunds, without deadlocks", async () => {
    const catalog = await insertCatalog(tenant.organization.id, { tickets: [{ quantityTotal: 50 }, { quantityTotal: 50 }] });
    const [t1, t2] = catalog.tickets;
    const bought: OrderBody[] = [];
    for (let i = 0; i < 6; i++) {
      const items = [{ ticket_id: t1!.id, quantity: 1 }, { ticket_id: t2!.id, quantity: 2 }];
      bought.push(await expectStatus<OrderBody>(await api("/v1/orders", { method: "POST", body: orderBody(catalog.eventId, i % 2 ? items : items.reverse()) }), 201));
    }
    const [eventRefunds, ...responses] = await Promise.all([
      db.transaction((tx) => refundCompletedOrdersOfEvent(tx, tenant.organization.id, catalog.event.id, "event_cancelled")),
      ...bought.map((o) => api(`/v1/orders/${o.id}/refund`, { method: "POST", body: { reason: "single" } })),
    ]);
    const statuses = (responses as Response[]).map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409), String(statuses)).toBe(true);
    expect((eventRefunds as { refunded: number }).refunded + statuses.filter((s) => s === 200).length).toBe(6);
    expect(await soldOf(t1!.row.id)).toBe(0);
    expect(await soldOf(t2!.row.id)).toBe(0);
  });
});
