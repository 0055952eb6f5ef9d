import fc from "fast-check";

const DAY = 86_400_000;
const FIRST_DAY = Date.UTC(2026, 2, 1);

/** Order times over ten UTC days, crowded around midnights, where the day arithmetic can go wrong. */
export function orderTimes(): Date[] {
  const times: Date[] = [];
  for (let day = 0; day < 10; day++) {
    const midnight = FIRST_DAY + day * DAY;
    for (const offset of [-1, 0, 1, 3_600_000, 43_200_000 + day, DAY - 2]) times.push(new Date(midnight + offset));
  }
  return times;
}

export const bound = fc.oneof(
  // A bare date: a whole UTC day.
  fc.integer({ min: -1, max: 11 }).map((day) => new Date(FIRST_DAY + day * DAY).toISOString().slice(0, 10)),
  // A timestamp near a midnight or an order, at millisecond or microsecond precision, in UTC or with an offset.
  fc
    .record({
      day: fc.integer({ min: -1, max: 11 }),
      offset: fc.constantFrom(-1, 0, 1, 3_600_000, 43_200_000, DAY - 2, DAY - 1),
      micros: fc.constantFrom("", "001", "999"),
      zone: fc.constantFrom("Z", "+02:00", "-05:30"),
    })
    .map(({ day, offset, micros, zone }) => {
      const instant = new Date(FIRST_DAY + day * DAY + offset);
      const zoneMinutes = zone === "Z" ? 0 : (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
      const local = new Date(instant.getTime() + zoneMinutes * 60_000).toISOString().slice(0, 23);
      return `${local}${micros}${zone}`;
    }),
);
