import { describe, expect, it } from "vitest";
import { caseMet } from "@/bench/support/search-cases";

describe("a search case's verdict in the bench", () => {
  it("holds a case with a target to its p50 and its exact total_count", () => {
    expect(caseMet(17.28, 30, 202_639, 202_639)).toBe(true);
    expect(caseMet(30.01, 30, 202_639, 202_639)).toBe(false);
    expect(caseMet(17.28, 30, 202_638, 202_639)).toBe(false);
  });

  it("holds a case measured without a target (one or two characters) to its exact total_count alone", () => {
    expect(caseMet(697.62, null, 911_111, 911_111)).toBe(true);
    expect(caseMet(697.62, null, 911_110, 911_111)).toBe(false);
  });

  it("holds a case without an expected count (deep pages) to its p50 alone", () => {
    expect(caseMet(57.22, 150, 1_000_000)).toBe(true);
    expect(caseMet(150.5, 150, 1_000_000)).toBe(false);
  });
});
