import type { SummaryGroupRow } from "@/lib/analytics/summary-schemas";
import { formatCount } from "@/lib/dashboard/format";

/** Groups with their share of revenue as a bar: label, orders, tickets (wider screens) and revenue. */
export function Breakdown({
  title,
  rows,
  money,
  testId,
}: {
  title: string;
  rows: SummaryGroupRow[];
  money: (minor: number) => string;
  testId: string;
}) {
  const headingId = `${testId}-heading`;
  const max = Math.max(0, ...rows.map((row) => row.revenue));
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h3 id={headingId} className="text-sm font-semibold text-slate-800">
        {title}
      </h3>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No orders in this period.</p>
      ) : (
        <table className="mt-2 w-full text-sm">
          <caption className="sr-only">{title}: orders, tickets and revenue per group</caption>
          <thead>
            <tr className="text-left text-xs text-slate-600">
              <th scope="col" className="w-full py-1 font-medium">
                Name
              </th>
              <th scope="col" className="py-1 pl-3 text-right font-medium">
                Orders
              </th>
              <th scope="col" className="hidden py-1 pl-3 text-right font-medium sm:table-cell">
                Tickets
              </th>
              <th scope="col" className="py-1 pl-3 text-right font-medium">
                Revenue
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} className="border-t border-slate-100" data-testid={testId}>
                <th scope="row" className="max-w-0 py-1.5 text-left font-normal">
                  <span className="block truncate" title={row.label}>
                    {row.label}
                  </span>
                  <span className="mt-1 block h-1.5 rounded-full bg-blue-700" style={{ width: `${max > 0 ? Math.max(2, (row.revenue / max) * 100) : 0}%` }} aria-hidden="true" />
                </th>
                <td className="py-1.5 pl-3 text-right whitespace-nowrap tabular-nums">{formatCount(row.orders)}</td>
                <td className="hidden py-1.5 pl-3 text-right whitespace-nowrap tabular-nums sm:table-cell">{formatCount(row.tickets)}</td>
                <td className="py-1.5 pl-3 text-right whitespace-nowrap tabular-nums">{money(row.revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
