import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { db, type Queryable } from "@/db/client";
import { events, orders } from "@/db/schema";

export const PERIOD_DAYS = [7, 30, 90, 365] as const;
export type PeriodDays = (typeof PERIOD_DAYS)[number];
export const DEFAULT_PERIOD: PeriodDays = 30;

/** `?days=` of the Overview URL; anything else falls back to the default period. */
export const periodSchema = z
  .enum(PERIOD_DAYS.map(String) as [string, ...string[]])
  .transform((value) => Number(value) as PeriodDays)
  .catch(DEFAULT_PERIOD);

export interface DailySales {
  /** UTC calendar day, YYYY-MM-DD. */
  day: string;
  revenue: number;
  orders: number;
}

export interface TopEvent {
  eventId: string;
  name: string;
  revenue: number;
  orders: number;
}

export interface SalesOverview {
  days: PeriodDays;
  daily: DailySales[];
  revenue: number;
  completedOrders: number;
  refundedOrders: number;
  /** Refunded orders over completed plus refunded ones; 0 when there are none. */
  refundRate: number;
  topEvents: TopEvent[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Midnight UTC of the first day of a period that ends today. */
export function periodStart(days: number, now = new Date()): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

/**
 * Sales of one organization for the last `days` UTC days, today included. Revenue counts completed
 * orders only: a refunded order's money went back; cancelled orders never took any.
 */
export async function salesOverview(
  organizationId: string,
  days: PeriodDays,
  q: Queryable = db,
  now = new Date(),
): Promise<SalesOverview> {
  const since = periodStart(days, now);
  const inPeriod = and(
    eq(orders.organizationId, organizationId),
    gte(orders.createdAt, since),
    inArray(orders.status, ["completed", "refunded"]),
  );
  const completed = sql`${orders.status} = 'completed'`;
  const day = sql<string>`to_char(${orders.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;

  const [dailyRows, totals, topEvents] = await Promise.all([
    q
      .select({
        day,
        revenue: sql<number>`coalesce(sum(${orders.totalPrice}) filter (where ${completed}), 0)`.mapWith(Number),
        orders: sql<number>`count(*) filter (where ${completed})`.mapWith(Number),
      })
      .from(orders)
      .where(inPeriod)
      .groupBy(day),
    q
      .select({
        revenue: sql<number>`coalesce(sum(${orders.totalPrice}) filter (where ${completed}), 0)`.mapWith(Number),
        completed: sql<number>`count(*) filter (where ${completed})`.mapWith(Number),
        refunded: sql<number>`count(*) filter (where ${orders.status} = 'refunded')`.mapWith(Number),
      })
      .from(orders)
      .where(inPeriod),
    q
      .select({
        eventId: events.id,
        name: events.name,
        revenue: sql<number>`sum(${orders.totalPrice})`.mapWith(Number),
        orders: sql<number>`count(*)`.mapWith(Number),
      })
      .from(orders)
      .innerJoin(events, and(eq(events.id, orders.eventId), eq(events.organizationId, orders.organizationId)))
      .where(and(inPeriod, eq(orders.status, "completed")))
      .groupBy(events.id, events.name)
      .orderBy(desc(sql`sum(${orders.totalPrice})`), events.name, events.id)
      .limit(5),
  ]);

  // Days without orders still get a bar, so the chart's x axis is the calendar.
  const byDay = new Map(dailyRows.map((row) => [row.day, row]));
  const daily = Array.from({ length: days }, (_, i) => {
    const key = isoDay(new Date(since.getTime() + i * DAY_MS));
    const row = byDay.get(key);
    return { day: key, revenue: row?.revenue ?? 0, orders: row?.orders ?? 0 };
  });

  const total = totals[0] ?? { revenue: 0, completed: 0, refunded: 0 };
  const decided = total.completed + total.refunded;
  return {
    days,
    daily,
    revenue: total.revenue,
    completedOrders: total.completed,
    refundedOrders: total.refunded,
    refundRate: decided === 0 ? 0 : total.refunded / decided,
    topEvents,
  };
}
