import { z } from "zod";
import { EVENT_STATUSES, type EventStatus } from "@/db/schema";
import { listEvents, type EventSort } from "@/lib/catalog/events";
import { ticketTotalsByEvent } from "@/lib/catalog/ticket-types";
import { currencyDigits } from "./format";
import { apiPageOf, firstParam, listQueryOf, type ListQuery, type ListSpec, type SearchParams, type SortOrder } from "./paging";

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
export const EVENT_SORTS = { created: "desc", name: "asc", starts_at: "asc", status: "asc" } as const satisfies Record<EventSort, SortOrder>;
export type { EventSort };
export const EVENT_LIST: ListSpec<EventSort> = { path: "/events", sorts: EVENT_SORTS, fallback: "created" };

export interface EventsQuery extends ListQuery<EventSort> {
  status?: EventStatus;
}

const statusFilter = z.enum(EVENT_STATUSES).optional().catch(undefined);

/** The /events URL as a list query: page, sort and the status filter; a bad value falls back to its default. */
export function eventsQueryOf(params: SearchParams): EventsQuery {
  return { ...listQueryOf(params, EVENT_LIST), status: statusFilter.parse(firstParam(params, "status")) };
}

/** One page of the organization's events as GET /v1/events lists them, with their ticket totals. */
export async function listEventPage(organizationId: string, query: EventsQuery): Promise<{ rows: EventListRow[]; total: number }> {
  const { data, meta } = await listEvents(organizationId, { ...apiPageOf(query), status: query.status }, query);
  const totals = await ticketTotalsByEvent(organizationId, data.map((event) => event.id));
  return {
    rows: data.map((event) => ({
      id: event.id,
      name: event.name,
      venue: event.venue.name,
      status: event.status,
      ended: event.has_ended,
      startsAt: event.starts_at,
      createdAt: event.created_at,
      ...(totals.get(event.id) ?? { sold: 0, total: 0 }),
    })),
    total: meta.total,
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
