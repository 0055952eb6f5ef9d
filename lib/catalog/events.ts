import { and, asc, count, eq, isNull, sql, type Placeholder } from "drizzle-orm";
import { db, preparedPerHandle, preparedPerShape, type Queryable, type Transaction } from "@/db/client";
import { EVENT_STATUSES, events, ticketTypes, venues, type EventStatus } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import { conflict, notFound, validationFailed } from "@/lib/http/errors";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { refundCompletedOrdersOfEvent } from "@/lib/orders/refunds";
import { announceDeliveries } from "@/lib/webhooks/outbox";
import { NEWEST_FIRST, orderThenId, pageMeta, pageOf, rankOf, type ListOrder, type SortColumn } from "@/lib/http/pagination";
import { iso, uuidOrNotFound } from "./common-schemas";
import type { CreateEventInput, Event, ListEventsQuery, UpdateEventInput } from "./event-schemas";
import { findLiveVenue } from "./venues";

type EventRow = typeof events.$inferSelect;

const eventWithVenue = { event: events, venue: { id: venues.id, name: venues.name } };

/** `has_ended` is derived when the event is read: the stored status stays what the organizer set. */
export function serializeEvent(row: EventRow, venue: { id: string; name: string }, now = new Date()): Event {
  return {
    id: toPublicId("event", row.id),
    name: row.name,
    ...(row.description === null ? {} : { description: row.description }),
    status: row.status,
    starts_at: iso(row.startsAt),
    ends_at: iso(row.endsAt),
    has_ended: row.endsAt <= now,
    venue: { id: toPublicId("venue", venue.id), name: venue.name },
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

// A status change not listed here is a conflict; staying in the same status is a no-op.
const TRANSITIONS: Record<EventStatus, EventStatus[]> = {
  draft: ["published", "cancelled"],
  published: ["cancelled"],
  cancelled: [],
};

const liveEvent = (organizationId: string | Placeholder, id: string | Placeholder) =>
  and(eq(events.organizationId, organizationId), eq(events.id, id), isNull(events.deletedAt));

/** A not-deleted event of the organization, or null; `lock` holds the row for the rest of the transaction. */
export async function findLiveEvent(
  q: Queryable,
  organizationId: string,
  id: string,
  lock?: "update" | "share",
): Promise<EventRow | null> {
  const query = q.select().from(events).where(liveEvent(organizationId, id)).limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row ?? null;
}

// A prepared query (see preparedPerHandle): the ticket types list reads it on every request.
const preparedLiveEventStatus = preparedPerHandle((database) =>
  database
    .select({ id: events.id, status: events.status })
    .from(events)
    .where(liveEvent(sql.placeholder("organizationId"), sql.placeholder("id")))
    .limit(1)
    .prepare("live_event_status"),
);

/** The id and status of a not-deleted event of the organization, or null (outside transactions). */
export async function findLiveEventStatus(organizationId: string, id: string): Promise<{ id: string; status: EventStatus } | null> {
  const [row] = await preparedLiveEventStatus().execute({ organizationId, id });
  return row ?? null;
}

async function liveEventOrNotFound(q: Queryable, organizationId: string, publicId: string, lock?: "update" | "share") {
  const row = await findLiveEvent(q, organizationId, uuidOrNotFound("event", publicId, "Event"), lock);
  if (!row) throw notFound("Event");
  return row;
}

/** The venue an event is attached to, locked against deletion; an unusable venue_id is the caller's input error. */
async function venueForEvent(tx: Transaction, organizationId: string, venuePublicId: string) {
  const id = fromPublicId("venue", venuePublicId);
  const venue = id ? await findLiveVenue(tx, organizationId, id, "share") : null;
  if (!venue) throw validationFailed([{ path: "venue_id", message: "No such venue in this organization" }]);
  return venue;
}

async function loadEvent(q: Queryable, organizationId: string, id: string): Promise<Event> {
  const [row] = await q
    .select(eventWithVenue)
    .from(events)
    .innerJoin(venues, eq(venues.id, events.venueId))
    .where(liveEvent(organizationId, id))
    .limit(1);
  if (!row) throw notFound("Event");
  return serializeEvent(row.event, row.venue);
}

/** The orders an event list can come in (the API's is newest first; the dashboard's table offers the others). */
const SORT_COLUMNS = {
  created: events.createdAt,
  name: sql`lower(${events.name})`,
  starts_at: events.startsAt,
  // Lifecycle order: drafts, then published, then cancelled.
  status: rankOf(events.status, EVENT_STATUSES),
} satisfies Record<string, SortColumn>;
export type EventSort = keyof typeof SORT_COLUMNS;

/** A list's optional filters and its sort: what decides the text of its queries (preparedPerShape). */
interface EventListShape extends ListOrder<EventSort> {
  status: boolean;
  venue: boolean;
}

const eventListWhere = (shape: EventListShape) =>
  and(
    eq(events.organizationId, sql.placeholder("organizationId")),
    isNull(events.deletedAt),
    shape.status ? eq(events.status, sql.placeholder("status")) : undefined,
    shape.venue ? eq(events.venueId, sql.placeholder("venueId")) : undefined,
  );
const eventListKey = (shape: EventListShape) => `${shape.sort} ${shape.order} ${shape.status} ${shape.venue}`;

const preparedEventPage = preparedPerShape(eventListKey, (database, shape: EventListShape) =>
  database
    .select(eventWithVenue)
    .from(events)
    .innerJoin(venues, eq(venues.id, events.venueId))
    .where(eventListWhere(shape))
    .orderBy(...orderThenId(SORT_COLUMNS[shape.sort], events.id, shape.order))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"))
    .prepare("event_page"),
  "once",
);
const preparedEventCount = preparedPerShape(eventListKey, (database, shape: EventListShape) =>
  database.select({ value: count() }).from(events).where(eventListWhere(shape)).prepare("event_count"),
  "once",
);

export async function listEvents(organizationId: string, query: ListEventsQuery, sort: ListOrder<EventSort> = NEWEST_FIRST) {
  const venueId = query.venue_id ? fromPublicId("venue", query.venue_id) : null;
  const shape: EventListShape = { sort: sort.sort, order: sort.order, status: Boolean(query.status), venue: venueId !== null };
  const values = { organizationId, status: query.status, venueId, ...pageOf(query) };
  const [rows, [total]] = await Promise.all([preparedEventPage(shape).execute(values), preparedEventCount(shape).execute(values)]);
  return { data: rows.map((r) => serializeEvent(r.event, r.venue)), meta: pageMeta(query, total?.value ?? 0) };
}

export async function getEvent(organizationId: string, publicId: string): Promise<Event> {
  return loadEvent(db, organizationId, uuidOrNotFound("event", publicId, "Event"));
}

export async function createEvent(organizationId: string, input: CreateEventInput): Promise<Event> {
  return db.transaction(async (tx) => {
    const venue = await venueForEvent(tx, organizationId, input.venue_id);
    const [row] = await tx
      .insert(events)
      .values({
        organizationId,
        venueId: venue.id,
        name: input.name,
        description: input.description,
        status: input.status ?? "draft",
        startsAt: input.starts_at,
        endsAt: input.ends_at,
      })
      .returning();
    return serializeEvent(row!, venue);
  });
}

/**
 * What cancelling and deleting share: no ticket of the event can be sold any more, and every
 * completed order is refunded (which also returns its quantities to the ticket types). Returns the
 * refunds' webhook deliveries, announced by the caller after its commit.
 */
async function withdrawEvent(
  tx: Transaction,
  organizationId: string,
  event: EventRow,
  reason: "event_cancelled" | "event_deleted",
): Promise<string[]> {
  const eventId = event.id;
  // Ticket rows are locked in id order, as order creation and refunds take them, so none can deadlock.
  await tx
    .select({ id: ticketTypes.id })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.organizationId, organizationId), eq(ticketTypes.eventId, eventId)))
    .orderBy(asc(ticketTypes.id))
    .for("update");
  const { deliveryIds, refunded } = await refundCompletedOrdersOfEvent(tx, organizationId, eventId, reason);
  await recordAudit(tx, {
    organizationId,
    action: reason === "event_cancelled" ? "event.cancelled" : "event.deleted",
    target: { type: "event", id: toPublicId("event", eventId), label: event.name },
    details: { refunded_orders: refunded },
  });
  await tx
    .update(ticketTypes)
    .set({ cancelledAt: new Date(), updatedAt: new Date() })
    .where(
      and(eq(ticketTypes.organizationId, organizationId), eq(ticketTypes.eventId, eventId), isNull(ticketTypes.cancelledAt)),
    );
  return deliveryIds;
}

export async function updateEvent(organizationId: string, publicId: string, input: UpdateEventInput): Promise<Event> {
  const { event, deliveryIds } = await db.transaction(async (tx) => {
    const current = await liveEventOrNotFound(tx, organizationId, publicId, "update");
    const status = input.status ?? current.status;
    if (status !== current.status && !TRANSITIONS[current.status].includes(status)) {
      throw conflict(`An event cannot go from ${current.status} to ${status}`);
    }
    const startsAt = input.starts_at ?? current.startsAt;
    const endsAt = input.ends_at ?? current.endsAt;
    if (startsAt >= endsAt) {
      throw validationFailed([{ path: input.ends_at ? "ends_at" : "starts_at", message: "starts_at must be before ends_at" }]);
    }
    const venue = input.venue_id ? await venueForEvent(tx, organizationId, input.venue_id) : undefined;
    await tx
      .update(events)
      .set({
        name: input.name,
        description: input.description,
        startsAt: input.starts_at,
        endsAt: input.ends_at,
        venueId: venue?.id,
        status,
        updatedAt: new Date(),
      })
      .where(eq(events.id, current.id));
    const withdrawn = status === "cancelled" && current.status !== "cancelled";
    const deliveryIds = withdrawn ? await withdrawEvent(tx, organizationId, current, "event_cancelled") : [];
    return { event: await loadEvent(tx, organizationId, current.id), deliveryIds };
  });
  await announceDeliveries(deliveryIds);
  return event;
}

/** Irreversible: the event vanishes from every read, its tickets are cancelled and its completed orders refunded. */
export async function deleteEvent(organizationId: string, publicId: string): Promise<void> {
  const deliveryIds = await db.transaction(async (tx) => {
    const event = await liveEventOrNotFound(tx, organizationId, publicId, "update");
    await tx.update(events).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(events.id, event.id));
    return withdrawEvent(tx, organizationId, event, "event_deleted");
  });
  await announceDeliveries(deliveryIds);
}
