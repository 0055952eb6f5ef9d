import { and, count, eq, isNull, sql, type SQLWrapper } from "drizzle-orm";
import { z } from "zod";
import { db } from "@/db/client";
import { EVENT_STATUSES, events, ticketTypes, venues, type EventStatus } from "@/db/schema";
import { toPublicId } from "@/lib/ids";
import { currencyDigits } from "./format";
import {
  fetchListPage,
  firstParam,
  listQueryOf,
  rankOf,
  type ListQuery,
  type ListSpec,
  type SearchParams,
  type SortOrder,
} from "./paging";

/** An event as the /events table lists it, dates as ISO strings for the client component. */
export interface EventListRow {
  id: string;
  name: string;
  venue: string;
  status: EventStatus;
  /** ends_at has passed: shown as "Ended", the stored status unchanged (the API's has_ended). */
  ended: boolean;
  startsAt: string;
  createdAt: string;
  /** Tickets sold and on offer, summed over the event's ticket types. */
  sold: number;
  total: number;
}

/** Sort keys of the /events table and the direction each starts in. */
export const EVENT_SORTS = { created: "desc", name: "asc", starts_at: "asc", status: "asc" } as const satisfies Record<string, SortOrder>;
export type EventSort = keyof typeof EVENT_SORTS;
export const EVENT_LIST: ListSpec<EventSort> = { path: "/events", sorts: EVENT_SORTS, fallback: "created" };

export interface EventsQuery extends ListQuery<EventSort> {
  status?: EventStatus;
}

const statusFilter = z.enum(EVENT_STATUSES).optional().catch(undefined);

/** The /events URL as a list query: page, sort and the status filter; a bad value falls back to its default. */
export function eventsQueryOf(params: SearchParams): EventsQuery {
  return { ...listQueryOf(params, EVENT_LIST), status: statusFilter.parse(firstParam(params, "status")) };
}

const SORT_COLUMNS = {
  created: events.createdAt,
  name: sql`lower(${events.name})`,
  starts_at: events.startsAt,
  // Lifecycle order: drafts, then published, then cancelled.
  status: rankOf(events.status, EVENT_STATUSES),
} satisfies Record<EventSort, SQLWrapper>;

const ticketSum = (column: typeof ticketTypes.quantitySold | typeof ticketTypes.quantityTotal) =>
  sql<number>`coalesce((select sum(${column}) from ${ticketTypes} where ${ticketTypes.organizationId} = ${events.organizationId} and ${ticketTypes.eventId} = ${events.id}), 0)`.mapWith(
    Number,
  );

/** One page of the organization's not-deleted events, with their venue's name and ticket totals. */
export async function listEventPage(organizationId: string, query: EventsQuery): Promise<{ rows: EventListRow[]; total: number }> {
  const where = and(
    eq(events.organizationId, organizationId),
    isNull(events.deletedAt),
    query.status ? eq(events.status, query.status) : undefined,
  );
  const { rows, total } = await fetchListPage(query, {
    rows: db
      .select({
        id: events.id,
        name: events.name,
        venue: venues.name,
        status: events.status,
        startsAt: events.startsAt,
        endsAt: events.endsAt,
        createdAt: events.createdAt,
        sold: ticketSum(ticketTypes.quantitySold),
        total: ticketSum(ticketTypes.quantityTotal),
      })
      .from(events)
      .innerJoin(venues, and(eq(venues.organizationId, events.organizationId), eq(venues.id, events.venueId)))
      .where(where)
      .$dynamic(),
    count: db.select({ value: count() }).from(events).where(where),
    sortBy: SORT_COLUMNS[query.sort],
    id: events.id,
  });
  const now = new Date();
  return {
    rows: rows.map(({ endsAt, ...row }) => ({
      ...row,
      id: toPublicId("event", row.id),
      ended: endsAt <= now,
      startsAt: row.startsAt.toISOString(),
      createdAt: row.createdAt.toISOString(),
    })),
    total,
  };
}

const DATETIME_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/** A `datetime-local` input's value, read as UTC (the forms say so) and given on as an ISO timestamp. */
export const utcDateTime = z
  .string({ error: "Enter a date and time" })
  .regex(DATETIME_LOCAL, "Enter a date and time")
  .transform((text) => `${text.length === 16 ? `${text}:00` : text}Z`);

const optionalText = z
  .string()
  .trim()
  .transform((text) => text || undefined)
  .optional();

/**
 * `.refine` arguments: the end after the start, worded for the form's labels (the API schema's own
 * check says "Must be after starts_at"). Quiet while either time is missing or malformed: that field has its own error.
 */
function endsAfterStart<K extends string>(start: K, end: K, message: string) {
  const check = (value: Record<K, unknown>) => {
    const [from, to] = [Date.parse(String(value[start])), Date.parse(String(value[end]))];
    return Number.isNaN(from) || Number.isNaN(to) || from < to;
  };
  return [check, { path: [end], message }] as [typeof check, { path: PropertyKey[]; message: string }];
}

/** The event form: turned into the body createEventSchema / updateEventSchema check. */
export const eventFormSchema = z
  .strictObject({
    name: z.string().trim().min(1, "Give the event a name").max(200, "At most 200 characters"),
    description: optionalText,
    venue_id: z.string({ error: "Choose a venue" }).min(1, "Choose a venue"),
    starts_at: utcDateTime,
    ends_at: utcDateTime,
  })
  .refine(...endsAfterStart("starts_at", "ends_at", "Must be after the start"));

/** Ticked in the confirmation dialog of an event that has ended: cancelling or deleting it then needs it. */
const acknowledgeEnded = z.literal("yes").optional();

export const eventStatusFormSchema = z.strictObject({
  id: z.string().min(1),
  status: z.enum(["published", "cancelled"]),
  acknowledge_ended: acknowledgeEnded,
});

export const deleteEventFormSchema = z.strictObject({ id: z.string().min(1), acknowledge_ended: acknowledgeEnded });

export const ENDED_EVENT_UNCONFIRMED = "This event has already ended. Tick the box to confirm you still want this.";

/** Amounts are typed in major units (12.50); the API takes minor units, by the currency's digits. */
export function minorUnitsSchema(currency: string) {
  const digits = currencyDigits(currency);
  return z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{1,9}(\\.\\d{1,${digits}})?$`), `Enter an amount like 250${digits ? `.${"0".repeat(digits)}` : ""}`)
    .transform((text) => {
      const [whole = "0", fraction = ""] = text.split(".");
      return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, "0") || 0);
    });
}

const wholeNumber = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, message)
    .transform(Number);

export function ticketTypeFormSchema(currency: string) {
  return z
    .strictObject({
    event_id: z.string().min(1),
    name: z.string().trim().min(1, "Give the ticket type a name").max(200, "At most 200 characters"),
    category: optionalText,
    price: minorUnitsSchema(currency),
    quantity_total: wholeNumber("Enter a whole number of tickets"),
    vat: z
      .string()
      .trim()
      .refine((text) => text === "" || (/^\d{1,3}(\.\d{1,2})?$/.test(text) && Number(text) <= 100), "Enter a percentage from 0 to 100")
      .transform((text) => (text === "" ? undefined : Number(text))),
    sale_starts_at: utcDateTime,
    sale_ends_at: utcDateTime,
  })
    .refine(...endsAfterStart("sale_starts_at", "sale_ends_at", "Must be after the sale start"));
}

/** The delete form of a ticket type: the event in the path and the ticket type. */
export const ticketTypeIdFormSchema = z.strictObject({ event_id: z.string().min(1), id: z.string().min(1) });
