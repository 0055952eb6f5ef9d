import type { TimeGroup } from "./summary-schemas";

const DAY_MS = 86_400_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const startOfUtcDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/** The start (UTC ms) of the bucket holding the given instant: its day, its ISO week's Monday, or its month. */
export function bucketStart(group: TimeGroup, ms: number): number {
  const day = startOfUtcDay(ms);
  if (group === "day") return day;
  if (group === "week") return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
  const d = new Date(day);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

function nextBucket(group: TimeGroup, start: number): number {
  if (group === "day") return start + DAY_MS;
  if (group === "week") return start + 7 * DAY_MS;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** ISO 8601 week number and its year (the year of the week's Thursday). */
function isoWeek(monday: number): { year: number; week: number } {
  const thursday = new Date(monday + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return { year, week };
}

export function bucketKey(group: TimeGroup, start: number): string {
  return group === "month" ? dayKey(start).slice(0, 7) : dayKey(start);
}

export function bucketLabel(group: TimeGroup, start: number): string {
  if (group === "day") return dayKey(start);
  if (group === "week") {
    const { year, week } = isoWeek(start);
    return `${year}-W${String(week).padStart(2, "0")}`;
  }
  const d = new Date(start);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Every bucket from the one holding `first` to the one holding `last` (UTC ms), empty ones included. */
export function bucketsBetween(group: TimeGroup, first: number, last: number): number[] {
  const starts: number[] = [];
  for (let start = bucketStart(group, first); start <= last; start = nextBucket(group, start)) starts.push(start);
  return starts;
}
