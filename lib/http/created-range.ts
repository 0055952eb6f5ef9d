import { z } from "zod";

/** An ISO 8601 instant (with offset) or a whole UTC day (`2026-11-24`). */
export const instantParam = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], "must be an ISO 8601 date or date-time")
  .transform((text) => new Date(text));

/** `created_from` (inclusive) and `created_to` (exclusive) of a list filtered by creation time. */
export const createdRangeShape = {
  created_from: instantParam.optional().describe("From this instant (inclusive): an ISO 8601 date-time with offset, or a UTC date"),
  created_to: instantParam.optional().describe("Before this instant (exclusive): an ISO 8601 date-time with offset, or a UTC date"),
};

/** The refinement that goes with createdRangeShape: `.refine(...createdRangeInOrder)`. */
export const createdRangeInOrder: [(q: { created_from?: Date; created_to?: Date }) => boolean, { message: string; path: string[] }] = [
  (q) => !q.created_from || !q.created_to || q.created_from <= q.created_to,
  { message: "must not be before created_from", path: ["created_to"] },
];
