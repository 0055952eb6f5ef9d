import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, rowsOf } from "@/db/client";
import { events, orderCampaigns, orderItems, orders, webhookDeliveries, webhookIntegrations } from "@/db/schema";
import { sqlStateOf } from "@/lib/http/db-errors";
import { createOrganization } from "@/lib/organizations/organizations";
import { useTestDatabase } from "../support/database";
import { insertCampaign, insertCatalog } from "../support/order-fixtures";

interface Placed {
  placed_id: string;
  placed_number: number;
  placed_currency: string;
  placed_at: string | Date;
  integration_ids: string[];
  delivery_ids: string[];
}

/** An outbox payload template as place_order takes it: format() slots for the order's values, `%` doubled. */
const PAYLOAD_TEMPLATE = '{"id":"%1$s","n":%2$s,"at":"%3$s","cur":"%4$s","pct":"100%%"}';

/* place_order (db/sql/place-order.sql): the writes of POST /v1/orders in one statement. */
describe("place_order", () => {
  useTestDatabase();

  async function world() {
    const organization = await createOrganization({ name: "Place AB", currency: "NOK" });
    const catalog = await insertCatalog(organization.id, { eventName: "Gala", tickets: [{ quantityTotal: 3 }, { quantityTotal: 10, price: 100 }] });
    const [first, second] = catalog.tickets.map((ticket) => ticket.row);
    const line = (ticket: typeof first, quantity: number) => ({
      id: randomUUID(),
      ticket_type_id: ticket!.id,
      name: ticket!.name,
      category: ticket!.category,
      quantity,
      unit_price: ticket!.price,
      vat_percent: ticket!.vatPercent,
    });
    const place = async (lines: ReturnType<typeof line>[], options: { campaign?: { id: string; name: string; code: string }; payload?: string | null } = {}) => {
      const { campaign, payload = PAYLOAD_TEMPLATE } = options;
      return rowsOf<Placed>(
        await db.execute(sql`select * from place_order(${organization.id}, ${catalog.event.id}, ${"Gala"}, ${"a@example.test"},
          ${"A Buyer"}, ${null}, ${"card"}, ${"visa"}, ${"web"}, ${1000}, ${900}, ${JSON.stringify(lines)}::jsonb,
          ${campaign?.id ?? null}, ${campaign?.name ?? null}, ${campaign?.code ?? null}, ${campaign ? 100 : null}, ${payload})`),
      )[0]!;
    };
    /** The SQLSTATE and DETAIL place_order refused with; the order it began is gone. */
    const refusal = async (placing: Promise<unknown>) => {
      const state = await placing.then(
        () => undefined,
        (error: unknown) => sqlStateOf(error),
      );
      expect(await db.select().from(orders).where(eq(orders.organizationId, organization.id))).toEqual([]);
      return state;
    };
    const integration = (eventTypes: string[], enabled = true) =>
      db
        .insert(webhookIntegrations)
        .values({ organizationId: organization.id, url: "https://example.test/hook", events: eventTypes as never, enabled })
        .returning({ id: webhookIntegrations.id });
    return { organization, event: catalog.event, first: first!, second: second!, line, place, refusal, integration };
  }

  it("writes the order, its items with the caller's ids and its campaign, and takes the tickets", async () => {
    const { organization, event, first, second, line, place } = await world();
    const campaign = await insertCampaign(organization.id, { code: "GALA" });
    const lines = [line(first, 2), line(second, 1)];

    const placed = await place(lines, { campaign, payload: null });

    expect(placed).toMatchObject({ placed_number: 1, placed_currency: "NOK", integration_ids: [], delivery_ids: [] });
    const [order] = await db.select().from(orders).where(eq(orders.id, placed.placed_id));
    expect(order).toMatchObject({
      organizationId: organization.id,
      eventId: event.id,
      status: "completed",
      customerEmail: "a@example.test",
      customerPhone: null,
      paymentMethod: "card",
      orderSource: "web",
      currency: "NOK",
      originalPrice: 1000,
      totalPrice: 900,
    });
    expect(new Date(placed.placed_at).getTime()).toBe(order!.createdAt.getTime());
    const items = await db.select().from(orderItems).where(eq(orderItems.orderId, placed.placed_id));
    expect(items.map((item) => [item.id, item.ticketTypeId, item.quantity, item.unitPrice, item.eventName]).sort()).toEqual(
      lines.map((l) => [l.id, l.ticket_type_id, l.quantity, l.unit_price, "Gala"]).sort(),
    );
    const [applied] = await db.select().from(orderCampaigns).where(eq(orderCampaigns.orderId, placed.placed_id));
    expect(applied).toMatchObject({ campaignId: campaign.id, code: campaign.code, discountAmount: 100 });
    const left = rowsOf<{ id: string; left: number }>(
      await db.execute(sql`select ticket_type_id as id, sum(available)::int as left from ticket_type_stock group by ticket_type_id`),
    );
    expect(Object.fromEntries(left.map((row) => [row.id, row.left]))).toEqual({ [first.id]: 1, [second.id]: 9 });
  });

  it("writes an outbox row per integration subscribed to OrderCompleted, its payload the template with the order's values filled in", async () => {
    const { first, line, place, integration } = await world();
    const [subscribed] = await integration(["OrderCompleted"]);
    await integration(["OrderRefunded"]);
    await integration(["OrderCompleted"], false);

    const placed = await place([line(first, 1)]);

    expect(placed.integration_ids).toEqual([subscribed!.id]);
    const [order] = await db.select().from(orders).where(eq(orders.id, placed.placed_id));
    const outbox = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.orderId, placed.placed_id));
    expect(outbox.map((row) => [row.id, row.integrationId, row.eventType, row.status, row.attemptCount])).toEqual([
      [placed.delivery_ids[0], subscribed!.id, "OrderCompleted", "Pending", 0],
    ]);
    expect(outbox[0]!.updatedAt.getTime()).toBe(order!.createdAt.getTime());
    expect(outbox[0]!.payload).toBe(`{"id":"${order!.id}","n":${order!.orderNumber},"at":"${order!.createdAt.toISOString()}","cur":"NOK","pct":"100%"}`);
  });

  it("refuses, writing nothing, a sold-out ticket type (TK001, its id), an unpublished or deleted event (TK002), and integrations without their outbox (TK003)", async () => {
    const { event, first, second, line, place, refusal, integration } = await world();

    expect(await refusal(place([line(second, 1), line(first, 4)]))).toEqual({ code: "TK001", detail: first.id });

    await integration(["OrderCompleted"]);
    expect(await refusal(place([line(first, 1)], { payload: null }))).toMatchObject({ code: "TK003" });

    await db.update(events).set({ status: "cancelled" }).where(eq(events.id, event.id));
    expect(await refusal(place([line(first, 1)]))).toEqual({ code: "TK002", detail: "cancelled" });
    await db.update(events).set({ status: "published", deletedAt: new Date() }).where(eq(events.id, event.id));
    expect(await refusal(place([line(first, 1)]))).toEqual({ code: "TK002", detail: "deleted" });

    const left = rowsOf<{ left: number }>(await db.execute(sql`select sum(available)::int as left from ticket_type_stock where ticket_type_id = ${first.id}`));
    expect(left[0]!.left).toBe(3);
  });
});
