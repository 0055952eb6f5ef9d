import { describe, expect, it } from "vitest";
import { newTraceId } from "@/lib/http/errors";

describe("trace ids", () => {
  it("are 24 hex digits, none repeated across several refills of the random pool", () => {
    const ids = Array.from({ length: 2_000 }, newTraceId);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("use every hex digit in every position (no byte of the pool is skipped or stuck)", () => {
    const seen = Array.from({ length: 24 }, () => new Set<string>());
    for (let i = 0; i < 2_000; i++) [...newTraceId()].forEach((digit, position) => seen[position]!.add(digit));
    for (const digits of seen) expect(digits.size).toBe(16);
  });
});
