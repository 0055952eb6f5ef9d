import { formatDay } from "@/lib/dashboard/format";

export interface BarDatum {
  day: string;
  value: number;
}

/**
 * Daily values as CSS bars: no chart library, scales to any width. Screen readers get a summary
 * from `summary`; each bar's exact value is in its tooltip and in the page's data table.
 */
export function BarChart({
  title,
  summary,
  data,
  format,
  colorClass,
}: {
  title: string;
  summary: string;
  data: BarDatum[];
  format: (value: number) => string;
  colorClass: string;
}) {
  const max = Math.max(0, ...data.map((d) => d.value));
  const gap = data.length <= 31 ? "gap-1" : data.length <= 90 ? "gap-px" : "gap-0";
  const first = data[0];
  const last = data[data.length - 1];
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <figcaption className="flex items-baseline justify-between gap-2">
        <span className="text-sm font-semibold text-slate-800">{title}</span>
        <span className="text-xs text-slate-600">max {format(max)}</span>
      </figcaption>
      <div role="img" aria-label={summary} className={`mt-3 flex h-40 items-end border-b border-slate-300 ${gap}`}>
        {data.map((d) => (
          <div
            key={d.day}
            title={`${formatDay(d.day)}: ${format(d.value)}`}
            className={`min-w-0 flex-1 rounded-t-sm ${d.value > 0 ? colorClass : ""}`}
            style={{ height: max > 0 && d.value > 0 ? `max(2px, ${(d.value / max) * 100}%)` : 0 }}
          />
        ))}
      </div>
      {first && last && (
        <div className="mt-1 flex justify-between text-xs text-slate-600" aria-hidden="true">
          <span>{formatDay(first.day)}</span>
          <span>{formatDay(last.day)}</span>
        </div>
      )}
    </figure>
  );
}
