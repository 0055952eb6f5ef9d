// Dates are shown in UTC so the server render and the browser's hydration agree.
const dateTime = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});
const shortDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

const dateTimeSeconds = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

export function formatDateTime(iso: string, seconds = false): string {
  return `${(seconds ? dateTimeSeconds : dateTime).format(new Date(iso))} UTC`;
}

/** "2026-11-22" → "22 Nov". */
export function formatDay(isoDay: string): string {
  return shortDay.format(new Date(`${isoDay}T00:00:00Z`));
}

/** How many minor units digits the currency has: 2 for SEK (öre), 0 for JPY. */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat("en-GB", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** An amount in minor units (öre, cents) in the organization's currency. */
export function formatMoney(minorUnits: number, currency: string): string {
  return new Intl.NumberFormat("en-GB", { style: "currency", currency }).format(minorUnits / 10 ** currencyDigits(currency));
}

/** An amount in minor units as a form types it: major units without grouping or symbol, 29550 SEK → "295.50". */
export function formatAmountInput(minorUnits: number, currency: string): string {
  const digits = currencyDigits(currency);
  return (minorUnits / 10 ** digits).toFixed(digits);
}

/** An ISO timestamp as the value of a `datetime-local` input showing UTC. */
export const toDateTimeLocal = (iso: string) => iso.slice(0, 16);

export function formatPercent(ratio: number): string {
  return new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 1 }).format(ratio);
}

/** A chart axis tick: short numbers ("12K", "1.5M"), money in major units without the symbol. */
export function formatCompact(value: number): string {
  return new Intl.NumberFormat("en-GB", { notation: "compact", maximumFractionDigits: 1 }).format(value);
}

/** A time bucket of the summary as the charts name it: "3 Mar", "Week of 2 Mar", "Mar 2026". */
export function formatBucket(bucket: "day" | "week" | "month", key: string, label: string): string {
  if (bucket === "day") return formatDay(key);
  if (bucket === "week") return `Week of ${formatDay(key)}`;
  return label;
}
