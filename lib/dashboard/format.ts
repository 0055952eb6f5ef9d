// Dates are shown in UTC so the server render and the browser's hydration agree.
const dateTime = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});
const shortDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

export function formatDateTime(iso: string): string {
  return `${dateTime.format(new Date(iso))} UTC`;
}

/** "2026-11-22" → "22 Nov". */
export function formatDay(isoDay: string): string {
  return shortDay.format(new Date(`${isoDay}T00:00:00Z`));
}

/** An amount in minor units (öre, cents) in the organization's currency. */
export function formatMoney(minorUnits: number, currency: string): string {
  const format = new Intl.NumberFormat("en-GB", { style: "currency", currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minorUnits / 10 ** digits);
}

export function formatPercent(ratio: number): string {
  return new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 1 }).format(ratio);
}
