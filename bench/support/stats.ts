/** Nearest-rank percentile of ascending `sorted` (NaN when empty). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** The nearest-rank median (percentile 50) of `values`, in any order. */
export const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

export const round = (value: number, decimals = 2) => Math.round(value * 10 ** decimals) / 10 ** decimals;

export interface LatencySummary {
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  mean_ms: number;
  max_ms: number;
}

export function latencySummary(latencies: number[]): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    p50_ms: round(percentile(sorted, 50)),
    p95_ms: round(percentile(sorted, 95)),
    p99_ms: round(percentile(sorted, 99)),
    mean_ms: round(sorted.reduce((sum, v) => sum + v, 0) / sorted.length),
    max_ms: round(sorted.at(-1) ?? NaN),
  };
}
