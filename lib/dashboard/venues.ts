import { z } from "zod";
import { countryCodeSchema, type Venue } from "@/lib/catalog/venue-schemas";
import { countVenues, listVenues, type VenueSort } from "@/lib/catalog/venues";
import { apiPageOf, type ListQuery, type ListSpec, type SortOrder } from "./paging";

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
export const VENUE_SORTS = { created: "desc", name: "asc", capacity: "desc" } as const satisfies Record<VenueSort, SortOrder>;
export type { VenueSort };
export const VENUE_LIST: ListSpec<VenueSort> = { path: "/venues", sorts: VENUE_SORTS, fallback: "created" };

/** One page of the organization's venues, as GET /v1/venues lists them (which returns them all at once). */
export async function listVenuePage(organizationId: string, query: ListQuery<VenueSort>): Promise<{ rows: Venue[]; total: number }> {
  const [{ data }, total] = await Promise.all([
    listVenues(organizationId, { page: apiPageOf(query), sort: query }),
    countVenues(organizationId),
  ]);
  return { rows: data, total };
}
