import { and, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { db, type Queryable } from "@/db/client";
import { events, orderDailySales, orderDailyTicketSales, orderItems, orders, organizations, ticketTypes } from "@/db/schema";
import { notFound, validationFailed } from "@/lib/http/errors";
import { toPublicId } from "@/lib/ids";
import { filtersOf } from "@/lib/orders/transactions-filters";
import { bucketKey, bucketLabel, bucketStart, bucketsBetween, startOfUtcDay } from "./buckets";
import { isTimeGroup, type Summary, type SummaryFigures, type SummaryGroupRow, type SummaryQuery } from "./summary-schemas";

const DAY_MS = 86_400_000;
/** Ten years of days: more buckets than any chart can show, fewer than a response can afford to send. */
const MAX_BUCKETS = 3_660;

/** What order_daily_sales can be grouped by; week and month add up days. */
type Dimension = "day" | "event" | "order_source" | "payment_method";

type WholeDays = { firstDay?: number; endDay?: number };

const EMPTY: SummaryFigures = { orders: 0, tickets: 0, revenue: 0, refunded_orders: 0, refunded_amount: 0 };

function add(into: SummaryFigures, more: SummaryFigures): SummaryFigures {
  return {
    orders: into.orders + more.orders,
    tickets: into.tickets + more.tickets,
    revenue: into.revenue + more.revenue,
    refunded_orders: into.refunded_orders + more.refunded_orders,
    refunded_amount: into.refunded_amount + more.refunded_amount,
  };
}

const num = (expression: SQL) => sql<number>`coalesce(${expression}, 0)`.mapWith(Number);

/** A bound's UTC ms, and whether its text is finer than a millisecond (Date.parse drops those digits). */
function instant(text: string): { ms: number; subMs: boolean } {
  const fraction = /\.(\d+)/.exec(text)?.[1] ?? "";
  return { ms: Date.parse(text), subMs: /[1-9]/.test(fraction.slice(3)) };
}

/**
 * The whole UTC days inside the query's date range, as [firstDay, endDay) in ms (either open when the
 * range is), or null when the range holds no whole day. Orders on those days are read from the trigger-kept
 * daily tables; only the partial days at either end are read from orders.
 */
function wholeDays(query: SummaryQuery): WholeDays | null {
  let firstDay: number | undefined;
  let endDay: number | undefined;
  if (query.date_from) {
    const lo = instant(query.date_from.text);
    firstDay = startOfUtcDay(lo.ms);
    if (firstDay < lo.ms || lo.subMs) firstDay += DAY_MS;
  }
  if (query.date_to) {
    const hi = instant(query.date_to.text).ms;
    endDay = query.date_to.wholeDay ? hi + DAY_MS : startOfUtcDay(hi);
  }
  if (firstDay !== undefined && endDay !== undefined && firstDay >= endDay) return null;
  return { firstDay, endDay };
}

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const timestamp = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

const DAILY_KEYS: Record<Dimension, SQL> = {
  day: sql`to_char(${orderDailySales.day}, 'YYYY-MM-DD')`,
  event: sql`${orderDailySales.eventId}::text`,
  order_source: sql`${orderDailySales.orderSource}`,
  payment_method: sql`${orderDailySales.paymentMethod}`,
};

const ORDER_KEYS: Record<Dimension, SQL> = {
  day: sql`to_char(${orders.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`,
  event: sql`${orders.eventId}::text`,
  order_source: sql`${orders.orderSource}`,
  payment_method: sql`${orders.paymentMethod}`,
};

type KeyedFigures = SummaryFigures & { key: string };

/**
 * Where a grouping's figures come from: `daily` sums the whole days of a trigger-kept table, `rows` reads the
 * orders matching the filters and `extra` (the partial days at the ends, or the whole range when it holds
 * no whole day).
 */
interface FigureSource {
  daily(q: Queryable, organizationId: string, query: SummaryQuery, days: WholeDays): Promise<KeyedFigures[]>;
  rows(q: Queryable, organizationId: string, query: SummaryQuery, extra?: SQL): Promise<KeyedFigures[]>;
}

/** Whole days of a trigger-kept sales table (both are keyed by the order's day, event, channel, payment method and refund state). */
async function dailyTableFigures(
  q: Queryable,
  t: typeof orderDailySales | typeof orderDailyTicketSales,
  key: SQL,
  organizationId: string,
  query: SummaryQuery,
  days: WholeDays,
) {
  const conditions: SQL[] = [eq(t.organizationId, organizationId)];
  if (days.firstDay !== undefined) conditions.push(gte(t.day, dayText(days.firstDay)));
  if (days.endDay !== undefined) conditions.push(lt(t.day, dayText(days.endDay)));
  if (query.event_id) conditions.push(eq(t.eventId, query.event_id));
  if (query.is_refunded !== undefined) conditions.push(eq(t.isRefunded, query.is_refunded));
  if (query.order_source) conditions.push(eq(t.orderSource, query.order_source));
  if (query.payment_method) conditions.push(eq(t.paymentMethod, query.payment_method));
  return q
    .select({
      key: sql<string>`${key}`,
      orders: num(sql`sum(${t.orderCount})`),
      tickets: num(sql`sum(${t.ticketCount})`),
      revenue: num(sql`sum(${t.revenue})`),
      refunded_orders: num(sql`sum(${t.orderCount}) filter (where ${t.isRefunded})`),
      refunded_amount: num(sql`sum(${t.revenue}) filter (where ${t.isRefunded})`),
    })
    .from(t)
    .where(and(...conditions))
    .groupBy(key);
}

/** Orders matching the filters (and `extra`), aggregated row by row. */
async function orderFigures(q: Queryable, organizationId: string, query: SummaryQuery, dimension: Dimension, extra?: SQL) {
  const key = ORDER_KEYS[dimension];
  const tickets = sql`(select sum(${orderItems.quantity}) from ${orderItems} where ${orderItems.orderId} = ${orders.id})`;
  return q
    .select({
      key: sql<string>`${key}`,
      orders: num(sql`count(*)`),
      tickets: num(sql`sum(${tickets})`),
      revenue: num(sql`sum(${orders.totalPrice})`),
      refunded_orders: num(sql`count(*) filter (where ${orders.isRefunded})`),
      refunded_amount: num(sql`sum(${orders.totalPrice}) filter (where ${orders.isRefunded})`),
    })
    .from(orders)
    .where(and(eq(orders.organizationId, organizationId), ...filtersOf(organizationId, query), extra))
    .groupBy(key);
}

/** An order's figures under its own key: whole days from order_daily_sales. */
const perOrder = (dimension: Dimension): FigureSource => ({
  daily: (q, organizationId, query, days) => dailyTableFigures(q, orderDailySales, DAILY_KEYS[dimension], organizationId, query, days),
  rows: (q, organizationId, query, extra) => orderFigures(q, organizationId, query, dimension, extra),
});

/**
 * Per ticket type, from the cart items: an order counts once under each type it holds, and revenue is the
 * items' value (unit price × quantity, before order-level campaign discounts). Whole days from
 * order_daily_ticket_sales, which the triggers keep with exactly these figures.
 */
const PER_TICKET_TYPE: FigureSource = {
  daily: (q, organizationId, query, days) =>
    dailyTableFigures(q, orderDailyTicketSales, sql`${orderDailyTicketSales.ticketTypeId}::text`, organizationId, query, days),
  rows: (q, organizationId, query, extra) => {
    const lineValue = sql`${orderItems.quantity}::bigint * ${orderItems.unitPrice}`;
    const key = sql<string>`${orderItems.ticketTypeId}::text`;
    return q
      .select({
        key,
        orders: num(sql`count(distinct ${orders.id})`),
        tickets: num(sql`sum(${orderItems.quantity})`),
        revenue: num(sql`sum(${lineValue})`),
        refunded_orders: num(sql`count(distinct ${orders.id}) filter (where ${orders.isRefunded})`),
        refunded_amount: num(sql`sum(${lineValue}) filter (where ${orders.isRefunded})`),
      })
      .from(orders)
      .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
      .where(and(eq(orders.organizationId, organizationId), ...filtersOf(organizationId, query), extra))
      .groupBy(key);
  },
};

/** Exact figures per key of one grouping: whole days from its trigger-kept table, partial days from orders. */
async function groupedFigures(q: Queryable, organizationId: string, query: SummaryQuery, source: FigureSource): Promise<Map<string, SummaryFigures>> {
  const days = wholeDays(query);
  const parts: Promise<KeyedFigures[]>[] = [];
  if (!days) {
    parts.push(source.rows(q, organizationId, query));
  } else {
    parts.push(source.daily(q, organizationId, query, days));
    // Each partial day is its own tight created_at range (the filters hold the outer bound), so the planner
    // reads just those index entries; one OR of both would scan the whole range.
    const lo = query.date_from && instant(query.date_from.text);
    if (lo && days.firstDay !== undefined && lo.ms < days.firstDay) {
      parts.push(source.rows(q, organizationId, query, lt(orders.createdAt, sql`${timestamp(days.firstDay)}`)));
    }
    if (query.date_to && !query.date_to.wholeDay && days.endDay !== undefined) {
      parts.push(source.rows(q, organizationId, query, gte(orders.createdAt, sql`${timestamp(days.endDay)}`)));
    }
  }
  const byKey = new Map<string, SummaryFigures>();
  for (const { key, ...figures } of (await Promise.all(parts)).flat()) byKey.set(key, add(byKey.get(key) ?? EMPTY, figures));
  return byKey;
}

/** Ticket types with orders, labelled "name (event)": types of different events often share a name ("Adult"). */
async function ticketTypeGroups(q: Queryable, organizationId: string, byType: Map<string, SummaryFigures>): Promise<SummaryGroupRow[]> {
  const present = [...byType].filter(([, figures]) => figures.orders > 0);
  if (present.length === 0) return [];
  const names = await q
    .select({ id: ticketTypes.id, name: ticketTypes.name, eventName: events.name })
    .from(ticketTypes)
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(and(eq(ticketTypes.organizationId, organizationId), inArray(ticketTypes.id, present.map(([id]) => id))));
  const labels = new Map(names.map((row) => [row.id, `${row.name} (${row.eventName})`]));
  return present
    .map(([id, figures]) => ({ key: toPublicId("ticketType", id), label: labels.get(id) ?? id, ...figures }))
    .sort(byRevenueThenLabel);
}

function byRevenueThenLabel(a: SummaryGroupRow, b: SummaryGroupRow): number {
  return b.revenue - a.revenue || a.label.localeCompare(b.label) || a.key.localeCompare(b.key);
}

/** The query's time buckets, oldest first, empty ones with zeros. */
function timeGroups(query: SummaryQuery, group: "day" | "week" | "month", byDay: Map<string, SummaryFigures>, now: Date): SummaryGroupRow[] {
  const dataDays = [...byDay.keys()].sort();
  const first = query.date_from ? instant(query.date_from.text).ms : dataDays.length ? Date.parse(`${dataDays[0]}T00:00:00Z`) : now.getTime();
  const last = query.date_to
    ? instant(query.date_to.text).ms
    : Math.max(now.getTime(), dataDays.length ? Date.parse(`${dataDays.at(-1)}T00:00:00Z`) : 0);
  const starts = bucketsBetween(group, first, last);
  if (starts.length > MAX_BUCKETS) {
    throw validationFailed([{ path: "group_by", message: `the date range holds ${starts.length} ${group}s; at most ${MAX_BUCKETS} buckets` }], "Invalid query parameters");
  }
  const buckets = new Map(starts.map((start) => [start, { ...EMPTY }]));
  for (const [day, figures] of byDay) {
    const start = bucketStart(group, Date.parse(`${day}T00:00:00Z`));
    buckets.set(start, add(buckets.get(start) ?? EMPTY, figures));
  }
  return [...buckets].map(([start, figures]) => ({ key: bucketKey(group, start), label: bucketLabel(group, start), ...figures }));
}

async function eventNames(q: Queryable, organizationId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await q
    .select({ id: events.id, name: events.name })
    .from(events)
    .where(and(eq(events.organizationId, organizationId), inArray(events.id, ids)));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** A filter naming another organization's event (or none) is a mistake in the request: 400 on event_id. */
async function assertOwnEvent(q: Queryable, organizationId: string, eventId: string | undefined) {
  if (!eventId) return;
  const [row] = await q
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.organizationId, organizationId), eq(events.id, eventId)));
  if (!row) throw validationFailed([{ path: "event_id", message: "no event of this organization has this id" }], "Invalid query parameters");
}

/**
 * GET /analytics_search/api/summary and the dashboard's charts: orders, tickets, revenue and refunds of the
 * orders the transactions search would return for the same filters, grouped. Time buckets are UTC and
 * contiguous; other groups hold only keys with orders, by revenue.
 */
export async function salesSummary(organizationId: string, query: SummaryQuery, options: { now?: Date; q?: Queryable } = {}): Promise<Summary> {
  const q = options.q ?? db;
  const now = options.now ?? new Date();
  const [[org]] = await Promise.all([
    q.select({ currency: organizations.currency }).from(organizations).where(eq(organizations.id, organizationId)),
    assertOwnEvent(q, organizationId, query.event_id),
  ]);
  if (!org) throw notFound("Organization");
  const group = query.group_by;

  let groups: SummaryGroupRow[];
  let totals: SummaryFigures;
  if (group === "ticket_type") {
    const [byType, all] = await Promise.all([
      groupedFigures(q, organizationId, query, PER_TICKET_TYPE),
      groupedFigures(q, organizationId, query, perOrder("order_source")),
    ]);
    groups = await ticketTypeGroups(q, organizationId, byType);
    totals = [...all.values()].reduce(add, EMPTY);
  } else {
    const byKey = await groupedFigures(q, organizationId, query, perOrder(isTimeGroup(group) ? "day" : group));
    if (isTimeGroup(group)) {
      groups = timeGroups(query, group, byKey, now);
    } else {
      const present = [...byKey].filter(([, figures]) => figures.orders > 0);
      const names = group === "event" ? await eventNames(q, organizationId, present.map(([key]) => key)) : null;
      groups = present
        .map(([key, figures]) =>
          names ? { key: toPublicId("event", key), label: names.get(key) ?? key, ...figures } : { key, label: key, ...figures },
        )
        .sort(byRevenueThenLabel);
    }
    totals = [...byKey.values()].reduce(add, EMPTY);
  }
  return { groups, totals, currency: org.currency };
}
