import type { Metadata } from "next";
import { getOrganization } from "@/lib/organizations/organizations";
import { formatMoney, formatPercent } from "@/lib/dashboard/format";
import { PERIOD_DAYS, periodSchema, salesOverview } from "@/lib/dashboard/overview";
import { requireSession } from "@/lib/dashboard/session";
import { BarChart } from "../_components/bar-chart";
import { FailingIntegrationsBanner } from "../_components/failing-integrations-banner";
import { PendingLink } from "../_components/pending-link";
import { DailyFiguresTable, TopEventsTable } from "./overview-tables";

export const metadata: Metadata = { title: "Overview · Ticketing analytics" };

export default async function OverviewPage({ searchParams }: { searchParams: Promise<{ days?: string | string[] }> }) {
  const session = await requireSession();
  const days = periodSchema.parse((await searchParams).days);
  const [organization, sales] = await Promise.all([
    getOrganization(session.organizationId),
    salesOverview(session.organizationId, days),
  ]);
  const currency = organization?.currency ?? "EUR";
  const money = (minor: number) => formatMoney(minor, currency);
  const count = (n: number) => n.toLocaleString("en-GB");
  const activeDays = sales.daily.filter((d) => d.orders > 0);

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <FailingIntegrationsBanner organizationId={session.organizationId} />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Overview</h1>
          <p className="text-sm text-slate-600">Sales of the last {days} days (UTC), today included.</p>
        </div>
        <nav aria-label="Period">
          <ul className="flex rounded-lg border border-slate-300 bg-white p-0.5 shadow-sm">
            {PERIOD_DAYS.map((option) => (
              <li key={option}>
                <PendingLink
                  href={`/overview?days=${option}`}
                  aria-current={option === days ? "page" : undefined}
                  className={`rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-700 ${
                    option === days ? "bg-blue-700 text-white" : "text-slate-700 hover:bg-slate-100"
                  }`}
                >
                  {option === 365 ? "1 year" : `${option} days`}
                </PendingLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>

      <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Stat label="Revenue" value={money(sales.revenue)} testId="stat-revenue" />
        <Stat label="Completed orders" value={count(sales.completedOrders)} testId="stat-orders" />
        <Stat
          label="Refund rate"
          value={formatPercent(sales.refundRate)}
          detail={`${count(sales.refundedOrders)} refunded`}
          testId="stat-refund-rate"
        />
      </dl>

      {activeDays.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
          No orders in the last {days} days. Orders created through the API appear here.
        </p>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          <BarChart
            title="Revenue per day"
            summary={`Revenue per day over ${days} days, ${money(sales.revenue)} in total`}
            data={sales.daily.map((d) => ({ day: d.day, value: d.revenue }))}
            format={money}
            colorClass="bg-blue-600"
          />
          <BarChart
            title="Orders per day"
            summary={`Completed orders per day over ${days} days, ${count(sales.completedOrders)} in total`}
            data={sales.daily.map((d) => ({ day: d.day, value: d.orders }))}
            format={count}
            colorClass="bg-emerald-600"
          />
        </div>
      )}

      <section aria-labelledby="top-events" className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <h2 id="top-events" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">
          Top events by revenue
        </h2>
        {sales.topEvents.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-600">No event has sold tickets in this period yet.</p>
        ) : (
          <TopEventsTable events={sales.topEvents} currency={currency} />
        )}
      </section>

      {activeDays.length > 0 && (
        <details className="rounded-xl border border-slate-200 bg-white shadow-sm">
          <summary className="cursor-pointer px-4 py-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-700">
            Daily figures ({activeDays.length} days with orders)
          </summary>
          <DailyFiguresTable days={activeDays} currency={currency} />
        </details>
      )}
    </div>
  );
}

function Stat({ label, value, detail, testId }: { label: string; value: string; detail?: string; testId: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
      {detail && <dd className="text-xs text-slate-600">{detail}</dd>}
    </div>
  );
}
