import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { orders } from "@/db/schema";
import { expectError, expectStatus } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { insertCatalog, insertOrders } from "../support/order-fixtures";
import { BREAKDOWNS, overviewQuery, periods, salesOverview } from "@/lib/dashboard/overview";
import { insertRandomSales } from "../support/sales-fixtures";
import { useTestServer } from "../support/server";

interface Figures {
  orders: number;
  tickets: number;
  revenue: number;
  refunded_orders: number;
  refunded_amount: number;
}
interface Group extends Figures {
  key: string;
  label: string;
}
interface Summary {
  groups: Group[];
  totals: Figures;
  currency: string;
}
interface TxOrder {
  uuid: string;
  total_price: number;
  is_refunded: boolean;
  created_at: string;
  order_source: string;
  payment_method: string;
  cart: { event: string; items: { name: string; quantity: number; price: number }[] };
}

const DAY = 86_400_000;
const START = new Date("2026-01-05T00:00:00Z");

const zero = (): Figures => ({ orders: 0, tickets: 0, revenue: 0, refunded_orders: 0, refunded_amount: 0 });
function addOrder(into: Figures, order: TxOrder, tickets: number, revenue: number, orders = 1) {
  into.orders += orders;
  into.tickets += tickets;
  into.revenue += revenue;
  if (order.is_refunded) {
    into.refunded_orders += orders;
    into.refunded_amount += revenue;
  }
}
const ticketsOf = (order: TxOrder) => order.cart.items.reduce((sum, item) => sum + item.quantity, 0);
function mondayOf(iso: string) {
  const day = Date.parse(`${iso.slice(0, 10)}T00:00:00Z`);
  return new Date(day - ((new Date(day).getUTCDay() + 6) % 7) * DAY).toISOString().slice(0, 10);
}
const KEY_OF: Record<string, (order: TxOrder) => string> = {
  day: (order) => order.created_at.slice(0, 10),
  week: (order) => mondayOf(order.created_at),
  month: (order) => order.created_at.slice(0, 7),
  event: (order) => order.cart.event,
  order_source: (order) => order.order_source,
  payment_method: (order) => order.payment_method,
};

/** What summing the transactions search's orders gives, per key (ticket types by item name, which is unique here). */
function expected(all: TxOrder[], groupBy: string): { groups: Map<string, Figures>; totals: Figures } {
  const groups = new Map<string, Figures>();
  const totals = zero();
  for (const order of all) {
    addOrder(totals, order, ticketsOf(order), order.total_price);
    if (groupBy === "ticket_type") {
      for (const item of order.cart.items) {
        const figures = groups.get(item.name) ?? zero();
        addOrder(figures, order, item.quantity, item.quantity * item.price);
        groups.set(item.name, figures);
      }
    } else {
      const key = KEY_OF[groupBy]!(order);
      const figures = groups.get(key) ?? zero();
      addOrder(figures, order, ticketsOf(order), order.total_price);
      groups.set(key, figures);
    }
  }
  return { groups, totals };
}

const figuresOf = ({ orders, tickets, revenue, refunded_orders, refunded_amount }: Figures): Figures => ({
  orders,
  tickets,
  revenue,
  refunded_orders,
  refunded_amount,
});

describe("GET /analytics_search/api/summary", () => {
  useTestDatabase();
  const server = useTestServer();
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let api: ReturnType<typeof apiClient>;

  beforeEach(async () => {
    tenant = await createTenant({ currency: "EUR" });
    api = apiClient(server.url(), tenant.apiKey);
  });

  async function summary(query: string): Promise<Summary> {
    return (await expectStatus<{ data: Summary }>(await api(`/analytics_search/api/summary?${query}`), 200)).data;
  }

  async function everyTransaction(filters: string): Promise<TxOrder[]> {
    const all: TxOrder[] = [];
    for (let from = 0; ; from += 1000) {
      const page = await expectStatus<{ data: { orders: TxOrder[] } }>(
        await api(`/analytics_search/api/transactions?size=1000&from=${from}&${filters}`),
        200,
      );
      all.push(...page.data.orders);
      if (page.data.orders.length < 1000) return all;
    }
  }

  async function expectSumsOfSearch(filters: string, groupBy: string) {
    const [got, transactions] = await Promise.all([summary(`group_by=${groupBy}&${filters}`), everyTransaction(filters)]);
    const want = expected(transactions, groupBy);
    expect(got.totals, `${groupBy} ${filters}`).toEqual(want.totals);
    // Ticket types are labelled "name (event)"; the search's items carry the name.
    const byKey = new Map(got.groups.map((group) => [groupBy === "ticket_type" ? group.label.replace(/ \(.*\)$/, "") : group.key, figuresOf(group)]));
    for (const [key, figures] of want.groups) expect(byKey.get(key), `${groupBy} ${filters} ${key}`).toEqual(figures);
    // Whatever the search did not return is an empty bucket (time) or absent (other groupings).
    for (const [key, figures] of byKey) if (!want.groups.has(key)) expect(figures, `${groupBy} ${filters} ${key}`).toEqual(zero());
    return got;
  }

  it("equals the sums of the transactions search on random data, for every grouping and filter, before and after refunds", async () => {
    const seed = Date.now() % 100_000;
    const { catalogs, rows } = await insertRandomSales(tenant.organization.id, { seed, count: 400, start: START, days: 100 });
    const eventId = catalogs[1]!.eventId;
    const filterSets = [
      "",
      "date_from=2026-01-20T13:17:00Z&date_to=2026-03-02T08:00:00.5Z",
      "date_from=2026-02-01&date_to=2026-02-28",
      "date_from=2026-02-10T10:00:00%2B02:00&date_to=2026-02-10T20:00:00Z",
      `event_id=${eventId}&is_refunded=false&date_from=2026-01-10T00:00:00.0001Z`,
      "is_refunded=true&date_to=2026-03-15T12:00:00Z",
      "order_source=web&payment_method=card&date_from=2026-01-15T06:00:00Z&date_to=2026-03-01",
    ];
    const groupings = ["day", "week", "month", "event", "ticket_type", "order_source", "payment_method"];
    for (const filters of filterSets) for (const groupBy of groupings) await expectSumsOfSearch(filters, groupBy);

    // Refunds move orders between the kept daily rows (the UPDATE trigger path).
    const completed = rows.filter((row) => row.status === "completed").slice(0, 25);
    for (const row of completed) {
      await expectStatus(await api(`/v1/orders/ord_${row.id.replaceAll("-", "")}/refund`, { method: "POST", body: {} }), 200);
    }
    for (const filters of filterSets.slice(0, 3)) for (const groupBy of ["day", "event", "ticket_type"]) await expectSumsOfSearch(filters, groupBy);
  }, 120_000);

  it("lists every UTC bucket of the range, empty ones with zeros, weeks from Monday", async () => {
    const catalog = await insertCatalog(tenant.organization.id);
    await insertOrders(tenant.organization.id, catalog.event, catalog.tickets[0]!.row, [
      { createdAt: new Date("2026-03-03T23:59:59.999Z"), totalPrice: 1_000 },
      { createdAt: new Date("2026-03-04T00:00:00.000Z"), totalPrice: 2_000, status: "refunded" },
    ]);
    const days = await summary("group_by=day&date_from=2026-03-01&date_to=2026-03-07");
    expect(days.currency).toBe("EUR");
    expect(days.groups.map((g) => g.key)).toEqual(["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07"]);
    expect(days.groups[0]).toEqual({ key: "2026-03-01", label: "2026-03-01", ...zero() });
    expect(figuresOf(days.groups[2]!)).toEqual({ orders: 1, tickets: 1, revenue: 1_000, refunded_orders: 0, refunded_amount: 0 });
    expect(figuresOf(days.groups[3]!)).toEqual({ orders: 1, tickets: 1, revenue: 2_000, refunded_orders: 1, refunded_amount: 2_000 });
    expect(days.totals).toEqual({ orders: 2, tickets: 2, revenue: 3_000, refunded_orders: 1, refunded_amount: 2_000 });

    const weeks = await summary("group_by=week&date_from=2026-02-20&date_to=2026-03-10");
    expect(weeks.groups.map((g) => [g.key, g.label])).toEqual([
      ["2026-02-16", "2026-W08"],
      ["2026-02-23", "2026-W09"],
      ["2026-03-02", "2026-W10"],
      ["2026-03-09", "2026-W11"],
    ]);
    expect(weeks.groups.map((g) => g.orders)).toEqual([0, 0, 2, 0]);
    const months = await summary("group_by=month&date_from=2025-12-15&date_to=2026-04-01");
    expect(months.groups.map((g) => [g.key, g.label, g.orders])).toEqual([
      ["2025-12", "Dec 2025", 0],
      ["2026-01", "Jan 2026", 0],
      ["2026-02", "Feb 2026", 0],
      ["2026-03", "Mar 2026", 2],
      ["2026-04", "Apr 2026", 0],
    ]);
    // An inclusive timestamp bound keeps the order placed exactly at it; the next millisecond is out.
    expect((await summary("date_from=2026-03-03T23:59:59.999Z&date_to=2026-03-03T23:59:59.999Z")).totals.orders).toBe(1);
    expect((await summary("date_from=2026-03-04T00:00:00.001Z")).totals.orders).toBe(0);
    expect((await summary("date_to=2026-03-03")).totals.orders).toBe(1);
    expect((await summary("group_by=event&is_refunded=true")).groups).toEqual([
      { key: catalog.eventId, label: "Spring concert", orders: 1, tickets: 1, revenue: 2_000, refunded_orders: 1, refunded_amount: 2_000 },
    ]);
  });

  it("refuses another organization's event, malformed ids, unknown groupings and reversed ranges with a 400 naming the field", async () => {
    const other = await createTenant();
    const theirs = await insertCatalog(other.organization.id);
    await expectError(await api(`/analytics_search/api/summary?event_id=${theirs.eventId}`), 400, "validation_failed", ["event_id"]);
    await expectError(await api("/analytics_search/api/summary?event_id=123"), 400, "validation_failed", ["event_id"]);
    await expectError(await api("/analytics_search/api/summary?group_by=hour"), 400, "validation_failed", ["group_by"]);
    await expectError(await api("/analytics_search/api/summary?date_from=2026-03-02&date_to=2026-03-01"), 400, "validation_failed", ["date_from"]);
    await expectError(await api("/analytics_search/api/summary?group_by=day&date_from=1990-01-01&date_to=2026-01-01"), 400, "validation_failed", ["group_by"]);
    const readOnlyElsewhere = await createTenant({ scopes: ["events:read"] });
    await expectError(await apiClient(server.url(), readOnlyElsewhere.apiKey)("/analytics_search/api/summary"), 403, "forbidden");
  });

  it("gives the Overview exactly the API's figures for the same period and groupings", async () => {
    const now = new Date();
    await insertRandomSales(tenant.organization.id, { seed: 3, count: 150, start: new Date(now.getTime() - 70 * DAY), days: 70 });
    for (const days of [30, 365] as const) {
      const overview = await salesOverview(tenant.organization.id, days, db, now);
      const { current, previous } = periods(days, now);
      const query = (bounds: Record<string, string>, groupBy: string) => new URLSearchParams(overviewQuery(bounds as never, groupBy as never)).toString();
      const series = await summary(query(current, overview.bucket));
      expect(overview.series).toEqual(series.groups);
      expect(overview.totals).toEqual(series.totals);
      expect(overview.previousTotals).toEqual((await summary(query(previous, "order_source"))).totals);
      for (const groupBy of BREAKDOWNS) expect(overview.breakdowns[groupBy], groupBy).toEqual((await summary(query(current, groupBy))).groups);
    }
  });

  it("keeps the daily figures exact when orders are deleted", async () => {
    await insertRandomSales(tenant.organization.id, { seed: 7, count: 60, start: START, days: 10 });
    await db.delete(orders).where((await import("drizzle-orm")).lt(orders.createdAt, new Date(START.getTime() + 5 * DAY)));
    await expectSumsOfSearch("", "day");
    await expectSumsOfSearch("", "ticket_type");
  });
});
