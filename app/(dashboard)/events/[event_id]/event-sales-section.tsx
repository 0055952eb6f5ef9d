import type { TicketType } from "@/lib/catalog/ticket-type-schemas";
import type { EventSales } from "@/lib/dashboard/event-sales";
import { formatBucket, formatCount, formatMoney } from "@/lib/dashboard/format";
import { SeriesChart } from "../../_components/series-chart";

/** Sold against capacity per ticket type, revenue and refunds, and tickets sold over time since the sale opened. */
export function EventSalesSection({ sales, ticketTypes, currency }: { sales: EventSales; ticketTypes: TicketType[]; currency: string }) {
  const money = (minor: number) => formatMoney(minor, currency);
  const figures = [
    ["Tickets sold", formatCount(sales.totals.tickets), "event-tickets"],
    ["Orders", formatCount(sales.totals.orders), "event-orders"],
    ["Revenue", money(sales.totals.revenue), "event-revenue"],
    ["Refunded", `${money(sales.totals.refunded_amount)} (${formatCount(sales.totals.refunded_orders)} orders)`, "event-refunded"],
  ] as const;
  return (
    <section aria-labelledby="sales-heading" className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="sales-heading" className="text-base font-semibold">
        Sales
      </h2>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {figures.map(([label, value, testId]) => (
          <div key={label} className="rounded-lg border border-slate-200 p-3">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="mt-1 text-lg font-semibold tabular-nums" data-testid={testId}>
              {value}
            </dd>
          </div>
        ))}
      </dl>

      <div>
        <h3 className="text-sm font-semibold text-slate-800">Sold and capacity per ticket type</h3>
        {ticketTypes.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">Sales per ticket type show here once the event has ticket types.</p>
        ) : (
          <ul className="mt-2 space-y-3">
            {ticketTypes.map((ticket) => {
              const share = ticket.quantity_total > 0 ? Math.min(1, ticket.quantity_sold / ticket.quantity_total) : 0;
              const revenue = sales.byTicketType.get(ticket.id)?.revenue ?? 0;
              return (
                <li key={ticket.id} data-testid="ticket-type-sales">
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
                    <span className="font-medium break-words">{ticket.name}</span>
                    <span className="tabular-nums text-slate-700">
                      {formatCount(ticket.quantity_sold)} / {formatCount(ticket.quantity_total)} sold · {money(revenue)}
                    </span>
                  </div>
                  <div
                    role="meter"
                    aria-label={`${ticket.name}: sold of capacity`}
                    aria-valuemin={0}
                    aria-valuemax={ticket.quantity_total}
                    aria-valuenow={ticket.quantity_sold}
                    aria-valuetext={`${formatCount(ticket.quantity_sold)} of ${formatCount(ticket.quantity_total)}`}
                    className="mt-1 h-3 overflow-hidden rounded-full bg-slate-200"
                  >
                    <div className="h-full rounded-full bg-blue-700" style={{ width: `${share * 100}%` }} />
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        <p className="mt-2 text-xs text-slate-600">Sold counts exclude refunded tickets, which go back on sale; revenue per type is price × quantity of all orders.</p>
      </div>

      <SeriesChart
        title="Tickets sold since the sale opened (cumulative)"
        summary={`Cumulative tickets sold per ${sales.bucket}, ${formatCount(sales.totals.tickets)} in total`}
        points={sales.cumulative.map((point) => ({ label: formatBucket(sales.bucket, point.key, point.label), value: point.tickets }))}
        unit="count"
        kind="line"
        testId="chart-cumulative"
      />
    </section>
  );
}
