import { afterEach, describe, expect, it, vi } from "vitest";
import { currencyDigits, formatAmountInput, formatCompact, formatCount, formatMoney, formatPercent } from "@/lib/dashboard/format";

describe("dashboard number formats", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("formats as Intl does for the currency, counts and percentages", () => {
    expect(formatMoney(29550, "SEK")).toBe(new Intl.NumberFormat("en-GB", { style: "currency", currency: "SEK" }).format(295.5));
    expect(formatMoney(1234, "JPY")).toBe("JP¥1,234");
    expect(formatMoney(-5, "EUR")).toBe("-€0.05");
    expect(currencyDigits("SEK")).toBe(2);
    expect(currencyDigits("JPY")).toBe(0);
    expect(formatAmountInput(29550, "SEK")).toBe("295.50");
    expect(formatCount(1234567)).toBe((1234567).toLocaleString("en-GB"));
    expect(formatCompact(1500000)).toBe(new Intl.NumberFormat("en-GB", { notation: "compact", maximumFractionDigits: 1 }).format(1500000));
    expect(formatPercent(0.1234)).toBe("12.3%");
  });

  it("builds one formatter per currency, not one per amount (a page formats hundreds; each build costs far more than a format)", () => {
    const Original = Intl.NumberFormat;
    const built = vi.spyOn(Intl, "NumberFormat").mockImplementation(function (...args: ConstructorParameters<typeof Intl.NumberFormat>) {
      return new Original(...args);
    } as typeof Intl.NumberFormat);
    for (let i = 0; i < 50; i++) {
      formatMoney(i * 100, "NOK");
      currencyDigits("NOK");
      formatCount(i);
    }
    expect(built.mock.calls.length).toBeLessThanOrEqual(1);
  });
});
