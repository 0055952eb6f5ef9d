import { and, count, eq, isNull, sql } from "drizzle-orm";
import { db, preparedPerHandle, preparedPerShape, type Queryable } from "@/db/client";
import { events, venues } from "@/db/schema";
import { conflict, notFound } from "@/lib/http/errors";
import { NEWEST_FIRST, orderThenId, pageOf, type ListOrder, type PaginationQuery, type SortColumn } from "@/lib/http/pagination";
import { toPublicId } from "@/lib/ids";
import { iso, uuidOrNotFound } from "./common-schemas";
import type { CreateVenueInput, UpdateVenueInput, Venue } from "./venue-schemas";

type VenueRow = typeof venues.$inferSelect;

export function serializeVenue(row: VenueRow): Venue {
  return {
    id: toPublicId("venue", row.id),
    name: row.name,
    address: { street: row.street, city: row.city, postal_code: row.postalCode, country: row.country },
    capacity: row.capacity,
    created_at: iso(row.createdAt),
  };
}

const liveVenue = (organizationId: string, id: string) =>
  and(eq(venues.organizationId, organizationId), eq(venues.id, id), isNull(venues.deletedAt));

/**
 * A not-deleted venue of the organization, or null. With `lock` the row is held until the transaction
 * ends, so a venue cannot be deleted while an event is being attached to it (and vice versa).
 */
export async function findLiveVenue(
  q: Queryable,
  organizationId: string,
  id: string,
  lock?: "update" | "share",
): Promise<VenueRow | null> {
  const query = q.select().from(venues).where(liveVenue(organizationId, id)).limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row ?? null;
}

async function liveVenueOrNotFound(q: Queryable, organizationId: string, publicId: string, lock?: "update") {
  const row = await findLiveVenue(q, organizationId, uuidOrNotFound("venue", publicId, "Venue"), lock);
  if (!row) throw notFound("Venue");
  return row;
}

const SORT_COLUMNS = {
  created: venues.createdAt,
  name: sql`lower(${venues.name})`,
  capacity: venues.capacity,
} satisfies Record<string, SortColumn>;
export type VenueSort = keyof typeof SORT_COLUMNS;

// The organization is a placeholder: both queries of a list are prepared.
const liveVenues = and(eq(venues.organizationId, sql.placeholder("organizationId")), isNull(venues.deletedAt));

/** A list's sort and whether it is one page: what decides the text of its queries (preparedPerShape). */
interface VenueListShape extends ListOrder<VenueSort> {
  paged: boolean;
}

const preparedVenueList = preparedPerShape(
  (shape: VenueListShape) => `${shape.sort} ${shape.order} ${shape.paged}`,
  (database, shape: VenueListShape) => {
    const query = database
      .select()
      .from(venues)
      .where(liveVenues)
      .orderBy(...orderThenId(SORT_COLUMNS[shape.sort], venues.id, shape.order))
      .$dynamic();
    return (shape.paged ? query.limit(sql.placeholder("limit")).offset(sql.placeholder("offset")) : query).prepare("venue_list");
  },
  "once",
);
const preparedVenueCount = preparedPerHandle((database) =>
  database.select({ value: count() }).from(venues).where(liveVenues).prepare("venue_count"),
);

/**
 * GET /v1/venues: every venue, newest first. The dashboard's table asks for one `page` in its own `sort`
 * (and counts them with countVenues).
 */
export async function listVenues(
  organizationId: string,
  options: { page?: PaginationQuery; sort?: ListOrder<VenueSort> } = {},
): Promise<{ data: Venue[] }> {
  const { sort = NEWEST_FIRST, page } = options;
  const rows = await preparedVenueList({ ...sort, paged: page !== undefined }).execute({ organizationId, ...(page && pageOf(page)) });
  return { data: rows.map(serializeVenue) };
}

export async function countVenues(organizationId: string): Promise<number> {
  const [row] = await preparedVenueCount().execute({ organizationId });
  return row?.value ?? 0;
}

export async function getVenue(organizationId: string, publicId: string): Promise<Venue> {
  return serializeVenue(await liveVenueOrNotFound(db, organizationId, publicId));
}

export async function createVenue(organizationId: string, input: CreateVenueInput): Promise<Venue> {
  const [row] = await db
    .insert(venues)
    .values({
      organizationId,
      name: input.name,
      street: input.address.street,
      city: input.address.city,
      postalCode: input.address.postal_code,
      country: input.address.country,
      capacity: input.capacity,
    })
    .returning();
  return serializeVenue(row!);
}

export async function updateVenue(organizationId: string, publicId: string, input: UpdateVenueInput): Promise<Venue> {
  const id = uuidOrNotFound("venue", publicId, "Venue");
  const address = input.address ?? {};
  const [row] = await db
    .update(venues)
    .set({
      name: input.name,
      street: address.street,
      city: address.city,
      postalCode: address.postal_code,
      country: address.country,
      capacity: input.capacity,
      updatedAt: new Date(),
    })
    .where(liveVenue(organizationId, id))
    .returning();
  if (!row) throw notFound("Venue");
  return serializeVenue(row);
}

/** Soft delete: past events keep their venue row; the venue disappears from every read. */
export async function deleteVenue(organizationId: string, publicId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const venue = await liveVenueOrNotFound(tx, organizationId, publicId, "update");
    const [inUse] = await tx
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.organizationId, organizationId), eq(events.venueId, venue.id), isNull(events.deletedAt)))
      .limit(1);
    if (inUse) throw conflict("The venue is used by an event; delete or move its events first");
    await tx.update(venues).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(venues.id, venue.id));
  });
}
