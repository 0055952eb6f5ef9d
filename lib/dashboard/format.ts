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

// Building an Intl formatter costs far more than formatting with it (a page formats hundreds of amounts): one
// per currency, kept for the process (currencies are a short fixed list).
const moneyFormats = new Map<string, { format: Intl.NumberFormat; digits: number }>();

function moneyFormat(currency: string) {
  let entry = moneyFormats.get(currency);
  if (!entry) {
    const format = new Intl.NumberFormat("en-GB", { style: "currency", currency });
    entry = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    moneyFormats.set(currency, entry);
  }
  return entry;
}

/** How many minor units digits the currency has: 2 for SEK (öre), 0 for JPY. */
export function currencyDigits(currency: string): number {
  return moneyFormat(currency).digits;
}

/** An amount in minor units (öre, cents) in the organization's currency. */
export function formatMoney(minorUnits: number, currency: string): string {
  const { format, digits } = moneyFormat(currency);
  return format.format(minorUnits / 10 ** digits);
}

/** An amount in minor units as a form types it: major units without grouping or symbol, 29550 SEK → "295.50". */
export function formatAmountInput(minorUnits: number, currency: string): string {
  const digits = currencyDigits(currency);
  return (minorUnits / 10 ** digits).toFixed(digits);
}

/** An ISO timestamp as the value of a `datetime-local` input showing UTC. */
export const toDateTimeLocal = (iso: string) => iso.slice(0, 16);

const count = new Intl.NumberFormat("en-GB");

/** A count with thousands separators, "12,345": what toLocaleString("en-GB") gives, without a formatter per call. */
export function formatCount(value: number): string {
  return count.format(value);
}

const percent = new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 1 });

export function formatPercent(ratio: number): string {
  return percent.format(ratio);
}

const compact = new Intl.NumberFormat("en-GB", { notation: "compact", maximumFractionDigits: 1 });

/** A chart axis tick: short numbers ("12K", "1.5M"), money in major units without the symbol. */
export function formatCompact(value: number): string {
  return compact.format(value);
}

/** A time bucket of the summary as the charts name it: "3 Mar", "Week of 2 Mar", "Mar 2026". */
export function formatBucket(bucket: "day" | "week" | "month", key: string, label: string): string {
  if (bucket === "day") return formatDay(key);
  if (bucket === "week") return `Week of ${formatDay(key)}`;
  return label;
}
