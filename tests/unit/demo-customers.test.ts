import { describe, expect, it } from "vitest";
import { emailLocalPart, seededRandom, weighted } from "@/lib/demo/customers";

describe("demo customer helpers", () => {
  it("seededRandom is deterministic and uniform enough", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const values = Array.from({ length: 10_000 }, () => a());
    expect(values.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
  });

  it("weighted follows the weights", () => {
    const random = seededRandom(7);
    const counts = { a: 0, b: 0 };
    for (let i = 0; i < 10_000; i++) counts[weighted(random, [["a", 9], ["b", 1]] as const)]++;
    expect(counts.a / 10_000).toBeGreaterThan(0.87);
    expect(counts.a / 10_000).toBeLessThan(0.93);
  });

  it("emailLocalPart folds Swedish letters to ASCII", () => {
    expect(emailLocalPart("Örjan", "Sjöberg")).toBe("orjan.sjoberg");
    expect(emailLocalPart("Åsa", "Håkansson")).toBe("asa.hakansson");
  });
});
