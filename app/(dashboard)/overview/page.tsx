import type { Metadata } from "next";
import { can } from "@/lib/auth/permissions";
import { formatBucket, formatCount, formatDay, formatMoney } from "@/lib/dashboard/format";
import { PERIOD_DAYS, periodSchema, salesOverview } from "@/lib/dashboard/overview";
import { requireSession } from "@/lib/dashboard/session";
import { SeriesChart } from "../_components/series-chart";
import { Breakdown } from "./breakdown";
import { Headline } from "./headline";
import { SummaryTable } from "./overview-tables";
import { FailingIntegrationsBanner } from "../_components/failing-integrations-banner";
import { PendingLink } from "../_components/pending-link";

export const metadata: Metadata = { title: "Overview · Ticketing analytics" };

const periodName = (days: number) => (days === 365 ? "year" : days === 730 ? "2 years" : `${days} days`);
const BUCKET_NAMES = { day: "day", week: "week", month: "month" } as const;

export default async function OverviewPage({ searchParams }: { searchParams: Promise<{ days?: string | string[] }> }) {
  const session = await requireSession("read");
  const days = periodSchema.parse((await searchParams).days);
  const sales = await salesOverview(session.organizationId, days);
  const money = (minor: number) => formatMoney(minor, sales.currency);
  const per = BUCKET_NAMES[sales.bucket];
  const points = (value: (row: (typeof sales.series)[number]) => number) =>
    sales.series.map((row) => ({ label: formatBucket(sales.bucket, row.key, row.label), value: value(row) }));
  const { totals, previousTotals: before } = sales;
  const period = `${formatDay(sales.period.date_from)} – ${formatDay(sales.period.date_to)}`;

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      {can(session.role, "integrations") && <FailingIntegrationsBanner organizationId={session.organizationId} />}
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Overview</h1>
          <p className="text-sm text-slate-600">
            Sales of the last {periodName(days)} ({period}, UTC), today included, per {per}.
          </p>
        </div>
        <nav aria-label="Period">
          <ul className="flex flex-wrap rounded-lg border border-slate-300 bg-white p-0.5 shadow-sm">
            {PERIOD_DAYS.map((option) => (
              <li key={option}>
                <PendingLink
                  href={`/overview?days=${option}`}
                  aria-current={option === days ? "page" : undefined}
                  className={`rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-700 ${
                    option === days ? "bg-blue-700 text-white" : "text-slate-700 hover:bg-slate-100"
                  }`}
                >
                  {option === 365 ? "1 year" : option === 730 ? "2 years" : `${option} days`}
                </PendingLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>

      <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Headline label="Revenue" value={totals.revenue} previous={before.revenue} format={money} periodName={periodName(days)} testId="stat-revenue" />
        <Headline label="Orders" value={totals.orders} previous={before.orders} format={formatCount} periodName={periodName(days)} testId="stat-orders" />
        <Headline label="Tickets sold" value={totals.tickets} previous={before.tickets} format={formatCount} periodName={periodName(days)} testId="stat-tickets" />
        <Headline
          label="Refunded"
          value={totals.refunded_amount}
          previous={before.refunded_amount}
          format={money}
          periodName={periodName(days)}
          testId="stat-refunded"
        />
      </dl>

      {totals.orders === 0 && (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
          No orders in the last {periodName(days)}. Orders created through the API appear here.
        </p>
      )}
      <div className="grid gap-4 lg:grid-cols-2">
        <SeriesChart
          title={`Revenue per ${per}`}
          summary={`Revenue per ${per} over the last ${periodName(days)}, ${money(totals.revenue)} in total`}
          points={points((row) => row.revenue)}
          unit={{ currency: sales.currency }}
          testId="chart-revenue"
        />
        <SeriesChart
          title={`Orders per ${per}`}
          summary={`Orders per ${per} over the last ${periodName(days)}, ${formatCount(totals.orders)} in total`}
          points={points((row) => row.orders)}
          unit="count"
          color="#047857"
          testId="chart-orders"
        />
        <SeriesChart
          title={`Tickets sold per ${per}`}
          summary={`Tickets sold per ${per} over the last ${periodName(days)}, ${formatCount(totals.tickets)} in total`}
          points={points((row) => row.tickets)}
          unit="count"
          color="#6d28d9"
          testId="chart-tickets"
        />
        <SeriesChart
          title={`Refunds per ${per}`}
          summary={`Refunded amount per ${per} over the last ${periodName(days)}, ${money(totals.refunded_amount)} in ${formatCount(totals.refunded_orders)} orders`}
          points={points((row) => row.refunded_amount)}
          unit={{ currency: sales.currency }}
          color="#b91c1c"
          testId="chart-refunds"
        />
      </div>

      <section aria-labelledby="breakdowns" className="space-y-3">
        <h2 id="breakdowns" className="text-lg font-semibold">
          Breakdowns
        </h2>
        <div className="grid gap-4 lg:grid-cols-2">
          <Breakdown title="By event" rows={sales.breakdowns.event} money={money} testId="breakdown-event" />
          <Breakdown title="By ticket type" rows={sales.breakdowns.ticket_type} money={money} testId="breakdown-ticket-type" />
          <Breakdown title="By channel" rows={sales.breakdowns.order_source} money={money} testId="breakdown-channel" />
          <Breakdown title="By payment method" rows={sales.breakdowns.payment_method} money={money} testId="breakdown-payment-method" />
        </div>
        <p className="text-xs text-slate-600">
          Revenue is what the orders were sold for, refunded orders included; by ticket type it is the tickets&apos; price × quantity.
        </p>
      </section>

      <details className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <summary className="cursor-pointer px-4 py-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-700">
          Figures per {per} ({sales.series.length} {per}s)
        </summary>
        <SummaryTable rows={sales.series} currency={sales.currency} header={per[0]!.toUpperCase() + per.slice(1)} caption={`Figures per ${per}`} testId="period-figures" />
      </details>
    </div>
  );
}
