import { formatPercent } from "@/lib/dashboard/format";

/** "+1,200 (+12.5%)" against the previous period; the percentage only when the previous figure is not zero. */
export function comparison(current: number, previous: number, format: (value: number) => string): string {
  const change = current - previous;
  const sign = change > 0 ? "+" : change < 0 ? "−" : "±";
  const absolute = `${sign}${format(Math.abs(change))}`;
  if (previous === 0) return `${absolute} (no previous figure)`;
  return `${absolute} (${sign}${formatPercent(Math.abs(change) / previous)})`;
}

/** One headline figure of the period with its change since the previous period of the same length. */
export function Headline({
  label,
  value,
  previous,
  format,
  periodName,
  testId,
}: {
  label: string;
  value: number;
  previous: number;
  format: (value: number) => string;
  periodName: string;
  testId: string;
}) {
  const change = value - previous;
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums" data-testid={testId}>
        {format(value)}
      </dd>
      <dd className={`text-xs tabular-nums ${change > 0 ? "text-emerald-800" : change < 0 ? "text-red-800" : "text-slate-600"}`} data-testid={`${testId}-change`}>
        {comparison(value, previous, format)} vs previous {periodName}
      </dd>
    </div>
  );
}
