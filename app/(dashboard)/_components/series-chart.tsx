"use client";

import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { labelledPoints } from "@/lib/dashboard/axis-labels";
import { currencyDigits, formatCompact, formatCount, formatMoney } from "@/lib/dashboard/format";

export interface SeriesPoint {
  /** What the point is, as shown beside its value ("3 Mar", "Week of 2 Mar"). */
  label: string;
  value: number;
}

/** What the values are (functions cannot cross from a server page to this client component): counts or money in minor units. */
export type SeriesUnit = "count" | { currency: string };

function formatters(unit: SeriesUnit): { format: (value: number) => string; formatTick: (value: number) => string } {
  if (unit === "count") return { format: (value) => formatCount(value), formatTick: formatCompact };
  return {
    format: (value) => formatMoney(value, unit.currency),
    formatTick: (value) => formatCompact(value / 10 ** currencyDigits(unit.currency)),
  };
}

/** Up to five round steps from 0 covering `max` (1, 2 or 5 × 10^n apart). */
export function niceTicks(max: number): number[] {
  if (max <= 0) return [0];
  const rough = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((m) => m * magnitude >= rough) ?? 10) * magnitude;
  const ticks: number[] = [];
  for (let tick = 0; tick < max + step; tick += step) ticks.push(tick);
  return ticks;
}

/**
 * The x axis's width and its widest label's, in px, measured once laid out and again whenever the axis is resized;
 * null until then (on the server too).
 */
function useAxisMeasure(labels: string[]) {
  const axis = useRef<HTMLDivElement>(null);
  const [measure, setMeasure] = useState<{ axisWidth: number; labelWidth: number } | null>(null);
  const key = labels.join("\n");
  useLayoutEffect(() => {
    const element = axis.current;
    const context = document.createElement("canvas").getContext("2d");
    if (!element || !context) return;
    context.font = getComputedStyle(element).font;
    const labelWidth = Math.max(0, ...key.split("\n").map((label) => context.measureText(label).width));
    // A ResizeObserver reports the size it starts with too, before the first paint.
    const observer = new ResizeObserver(() => setMeasure({ axisWidth: element.clientWidth, labelWidth }));
    observer.observe(element);
    return () => observer.disconnect();
  }, [key]);
  return { axis, measure };
}

/**
 * A bar (or line) chart of one series: y axis with round ticks and gridlines, x axis labels, and the exact
 * value of a point on hover, or on keyboard focus with the arrow keys (announced through a live region).
 * Bars and lines are SVG stretched to the plot; every text is HTML, so it stays readable at 375 px.
 */
export function SeriesChart({
  title,
  summary,
  points,
  unit,
  kind = "bar",
  color = "#1d4ed8",
  testId,
}: {
  title: string;
  /** One sentence for screen readers: what the chart shows and its total. */
  summary: string;
  points: SeriesPoint[];
  unit: SeriesUnit;
  kind?: "bar" | "line";
  color?: string;
  testId?: string;
}) {
  const [active, setActive] = useState<number | null>(null);
  const { format, formatTick } = formatters(unit);
  const id = useId();
  const ticks = niceTicks(Math.max(0, ...points.map((p) => p.value)));
  const top = ticks.at(-1) || 1;
  const n = Math.max(points.length, 1);
  const y = (value: number) => 100 - (value / top) * 100;
  const { axis, measure } = useAxisMeasure(points.map((p) => p.label));
  // Until measured, only the first and last point: they fit even on a phone.
  const labelled = new Set(measure ? labelledPoints(points.length, measure.axisWidth, measure.labelWidth) : [0, points.length - 1]);
  const current = active === null ? null : points[active];

  function onKeyDown(event: KeyboardEvent) {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 };
    if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      setActive(event.key === "Home" ? 0 : points.length - 1);
    } else if (moves[event.key] !== undefined) {
      event.preventDefault();
      setActive((index) => Math.min(points.length - 1, Math.max(0, (index ?? (moves[event.key]! > 0 ? -1 : points.length)) + moves[event.key]!)));
    }
  }

  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <figcaption id={`${id}-title`} className="text-sm font-semibold text-slate-800">
        {title}
      </figcaption>
      <p className="mt-1 min-h-5 text-sm tabular-nums text-slate-700" aria-live="polite" data-testid={testId && `${testId}-value`}>
        {current ? `${current.label}: ${format(current.value)}` : <span className="text-slate-600">Hover or focus the chart and use the arrow keys for values</span>}
      </p>
      <div
        role="group"
        tabIndex={0}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-summary`}
        onKeyDown={onKeyDown}
        onFocus={() => setActive((index) => index ?? points.length - 1)}
        onBlur={() => setActive(null)}
        onMouseLeave={() => setActive(null)}
        className="mt-4 grid grid-cols-[3.5rem_1fr] rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 sm:grid-cols-[4.5rem_1fr]"
      >
        <p id={`${id}-summary`} className="sr-only">
          {summary}
        </p>
        <div className="relative h-44" aria-hidden="true">
          {ticks.map((tick) => (
            <span key={tick} className="absolute right-2 -translate-y-1/2 text-xs tabular-nums text-slate-600" style={{ top: `${y(tick)}%` }}>
              {formatTick(tick)}
            </span>
          ))}
        </div>
        <div className="relative h-44 border-b border-l border-slate-400">
          {ticks.map((tick) => (
            <div key={tick} className="absolute inset-x-0 border-t border-slate-200" style={{ top: `${y(tick)}%` }} aria-hidden="true" />
          ))}
          <svg viewBox={`0 0 ${n} 100`} preserveAspectRatio="none" className="absolute inset-0 h-full w-full overflow-visible" aria-hidden="true">
            {kind === "line" ? (
              <polyline
                fill="none"
                stroke={color}
                strokeWidth={2}
                vectorEffect="non-scaling-stroke"
                points={points.map((p, i) => `${i + 0.5},${y(p.value)}`).join(" ")}
              />
            ) : (
              points.map((p, i) => (
                <rect key={i} x={i + (n > 60 ? 0.05 : 0.15)} width={n > 60 ? 0.9 : 0.7} y={y(p.value)} height={100 - y(p.value)} fill={color} opacity={active === null || active === i ? 1 : 0.45} />
              ))
            )}
            {active !== null && <line x1={active + 0.5} x2={active + 0.5} y1={0} y2={100} stroke="#0f172a" strokeWidth={1} vectorEffect="non-scaling-stroke" strokeDasharray="3 3" />}
          </svg>
          {/* Hover targets: one full-height column per point. */}
          <div className="absolute inset-0 flex" aria-hidden="true">
            {points.map((p, i) => (
              <div key={i} className="h-full flex-1" onMouseEnter={() => setActive(i)} />
            ))}
          </div>
        </div>
        <div />
        <div ref={axis} className="relative h-5 text-xs" aria-hidden="true" data-testid={testId && `${testId}-x-axis`}>
          {points.map((p, i) =>
            labelled.has(i) ? (
              <span
                key={i}
                className={`absolute top-1 whitespace-nowrap text-slate-600 ${
                  i === 0 ? "" : i === points.length - 1 ? "-translate-x-full" : "-translate-x-1/2"
                }`}
                style={{ left: i === 0 ? 0 : i === points.length - 1 ? "100%" : `${((i + 0.5) / n) * 100}%` }}
              >
                {p.label}
              </span>
            ) : null,
          )}
        </div>
      </div>
    </figure>
  );
}
