import { salesSummary } from "@/lib/analytics/summary";
import { summaryQuerySchema, type SummaryFigures, type TimeGroup } from "@/lib/analytics/summary-schemas";
import { bucketFor } from "./overview";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface EventSales {
  totals: SummaryFigures;
  /** Revenue and tickets per ticket type id (tkt_…), as the summary's ticket_type grouping has them. */
  byTicketType: Map<string, SummaryFigures>;
  bucket: TimeGroup;
  /** Tickets sold up to the end of each bucket, from the day the sale opened (or the first order) to today. */
  cumulative: { key: string; label: string; tickets: number }[];
}

/**
 * An event's sales for its dashboard page, read through salesSummary like the API's summary with
 * event_id (so the figures match it); `saleOpened` is the earliest sale start of its ticket types.
 */
export async function eventSales(organizationId: string, eventPublicId: string, saleOpened: string | null, now = new Date()): Promise<EventSales> {
  const opened = saleOpened && Date.parse(saleOpened) < now.getTime() ? saleOpened.slice(0, 10) : undefined;
  const days = opened ? Math.ceil((now.getTime() - Date.parse(`${opened}T00:00:00Z`)) / DAY_MS) + 1 : 90;
  const bucket = bucketFor(days);
  const summarize = (input: Record<string, string>) =>
    salesSummary(organizationId, summaryQuerySchema.parse({ event_id: eventPublicId, ...input }), { now });
  const [byType, series] = await Promise.all([
    summarize({ group_by: "ticket_type" }),
    summarize({ group_by: bucket, ...(opened ? { date_from: opened } : {}) }),
  ]);
  let running = 0;
  return {
    totals: byType.totals,
    byTicketType: new Map(byType.groups.map(({ key, label: _label, ...figures }) => [key, figures])),
    bucket,
    cumulative: series.groups.map((group) => ({ key: group.key, label: group.label, tickets: (running += group.tickets) })),
  };
}
