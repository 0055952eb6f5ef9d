import { and, count, eq, isNull, sql, type SQLWrapper } from "drizzle-orm";
import { z } from "zod";
import { db } from "@/db/client";
import { venues } from "@/db/schema";
import { countryCodeSchema, type Venue } from "@/lib/catalog/venue-schemas";
import { serializeVenue } from "@/lib/catalog/venues";
import { fetchListPage, type ListQuery, type ListSpec, type SortOrder } from "./paging";

const line = (label: string, max: number) =>
  z.string().trim().min(1, `Enter the ${label}`).max(max, `At most ${max} characters`);

/** The create-venue form, flat (one input per field); its output is the POST /v1/venues body. */
export const venueFormSchema = z
  .strictObject({
    name: line("name", 200),
    street: line("street", 200),
    city: line("city", 100),
    postal_code: line("postal code", 20),
    country: z.string().trim().toUpperCase().pipe(countryCodeSchema),
    capacity: z.string().trim().regex(/^\d{1,7}$/, "Enter a whole number").transform(Number).pipe(z.int().min(1, "At least 1").max(1_000_000, "At most 1,000,000")),
  })
  .transform(({ street, city, postal_code, country, ...venue }) => ({ ...venue, address: { street, city, postal_code, country } }));

/** Sort keys of the /venues table and the direction each starts in. */
export const VENUE_SORTS = { created: "desc", name: "asc", capacity: "desc" } as const satisfies Record<string, SortOrder>;
export type VenueSort = keyof typeof VENUE_SORTS;
export const VENUE_LIST: ListSpec<VenueSort> = { path: "/venues", sorts: VENUE_SORTS, fallback: "created" };

const SORT_COLUMNS = {
  created: venues.createdAt,
  name: sql`lower(${venues.name})`,
  capacity: venues.capacity,
} satisfies Record<VenueSort, SQLWrapper>;

/**
 * One page of the organization's venues for the dashboard. The API's list returns every venue at once;
 * the dashboard pages and sorts on the server instead.
 */
export async function listVenuePage(organizationId: string, query: ListQuery<VenueSort>): Promise<{ rows: Venue[]; total: number }> {
  const where = and(eq(venues.organizationId, organizationId), isNull(venues.deletedAt));
  const { rows, total } = await fetchListPage(query, {
    rows: db.select().from(venues).where(where).$dynamic(),
    count: db.select({ value: count() }).from(venues).where(where),
    sortBy: SORT_COLUMNS[query.sort],
    id: venues.id,
  });
  return { rows: rows.map(serializeVenue), total };
}
