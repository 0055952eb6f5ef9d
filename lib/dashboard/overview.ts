import { z } from "zod";
import { db, type Queryable } from "@/db/client";
import { salesSummary } from "@/lib/analytics/summary";
import { summaryQuerySchema, type SummaryFigures, type SummaryGroup, type SummaryGroupRow, type TimeGroup } from "@/lib/analytics/summary-schemas";

export const PERIOD_DAYS = [7, 30, 90, 365, 730] as const;
export type PeriodDays = (typeof PERIOD_DAYS)[number];
export const DEFAULT_PERIOD: PeriodDays = 30;

/** `?days=` of the Overview URL; anything else falls back to the default period. */
export const periodSchema = z
  .enum(PERIOD_DAYS.map(String) as [string, ...string[]])
  .transform((value) => Number(value) as PeriodDays)
  .catch(DEFAULT_PERIOD);

export const BREAKDOWNS = ["event", "ticket_type", "order_source", "payment_method"] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Buckets that fit the period: days up to 90 days, weeks up to a year, months beyond. */
export function bucketFor(days: number): TimeGroup {
  return days <= 90 ? "day" : days <= 366 ? "week" : "month";
}

/** The last `days` UTC days, today included, and the as long period just before, as summary date bounds. */
export function periods(days: number, now = new Date()) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = today - (days - 1) * DAY_MS;
  return {
    current: { date_from: isoDay(from), date_to: isoDay(today) },
    previous: { date_from: isoDay(from - days * DAY_MS), date_to: isoDay(from - DAY_MS) },
  };
}

/** The summary query the Overview asks for, in the API's query-string form (so tests can send the same to the API). */
export function overviewQuery(bounds: { date_from: string; date_to: string }, groupBy: SummaryGroup): Record<string, string> {
  return { group_by: groupBy, ...bounds };
}

export interface SalesOverview {
  days: PeriodDays;
  bucket: TimeGroup;
  currency: string;
  period: { date_from: string; date_to: string };
  /** One row per bucket of the period, empty ones included. */
  series: SummaryGroupRow[];
  totals: SummaryFigures;
  previousTotals: SummaryFigures;
  breakdowns: Record<Breakdown, SummaryGroupRow[]>;
}

/**
 * The Overview's figures, every one read through salesSummary (the API's summary) so the dashboard and
 * GET /analytics_search/api/summary cannot disagree.
 */
export async function salesOverview(organizationId: string, days: PeriodDays, q: Queryable = db, now = new Date()): Promise<SalesOverview> {
  const { current, previous } = periods(days, now);
  const bucket = bucketFor(days);
  const summarize = (bounds: { date_from: string; date_to: string }, groupBy: SummaryGroup) =>
    salesSummary(organizationId, summaryQuerySchema.parse(overviewQuery(bounds, groupBy)), { q, now });
  const [series, before, ...breakdowns] = await Promise.all([
    summarize(current, bucket),
    summarize(previous, "order_source"),
    ...BREAKDOWNS.map((groupBy) => summarize(current, groupBy)),
  ]);
  return {
    days,
    bucket,
    currency: series.currency,
    period: current,
    series: series.groups,
    totals: series.totals,
    previousTotals: before.totals,
    breakdowns: Object.fromEntries(BREAKDOWNS.map((name, index) => [name, breakdowns[index]!.groups])) as Record<Breakdown, SummaryGroupRow[]>,
  };
}
