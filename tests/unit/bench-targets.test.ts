import { describe, expect, it } from "vitest";
import { targetRows } from "@/bench/support/targets";

const EXPORT_TARGET = "Export of 1,000,000 orders < 60 s, memory within 100 MB of idle (every format)";

/** bench/analytics.ts's stored exports: `met` judges an export alone by time and memory, one of two at once by memory. */
function exportRow(exports: Record<string, unknown>[]) {
  const results = { analytics: { measured_at: "2026-11-29T16:14:00.000Z", orders: 1_000_000, exports } };
  return targetRows(results).find((row) => row.target === EXPORT_TARGET)!;
}

const exported = (name: string, totalS: number, concurrent: boolean, met: boolean) => ({
  name,
  total_s: totalS,
  first_byte_ms: 30,
  growth_mb: 10,
  concurrent,
  met,
});

describe("the export target in the Targets table", () => {
  it("names the slowest export alone as the one held to 60 s, and the two at once apart", () => {
    const row = exportRow([
      exported("CSV", 50.38, false, true),
      exported("CSV, one row per item", 54.78, false, true),
      exported("JSON Lines", 59.96, true, true),
      exported("CSV, one row per item", 69.14, true, true),
    ]);
    expect(row.holds).toBe(true);
    expect(row.value).toBe(
      "slowest alone CSV, one row per item 54.78 s, first byte 30 ms; 2 at once, the slower 69.14 s; most growth +10 MB (1,000,000 orders)",
    );
  });

  it("does not hold when an export alone is over 60 s", () => {
    const row = exportRow([exported("CSV", 61.2, false, false), exported("JSON Lines", 70, true, true)]);
    expect(row.holds).toBe(false);
    expect(row.value).toMatch(/^slowest alone CSV 61.2 s/);
  });

  it("does not hold when one of two at once outgrew the memory bound", () => {
    const row = exportRow([exported("CSV", 40, false, true), exported("JSON Lines", 50, true, false)]);
    expect(row.holds).toBe(false);
  });
});
