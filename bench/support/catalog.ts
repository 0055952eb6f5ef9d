/**
 * Catalog fixtures with room for any benchmark's orders, created through the request schemas as the API hands
 * them to the domain functions. The app's modules load here, after the caller pointed the environment at its
 * database.
 */
const DAY = 86_400_000;

export async function benchVenue(organizationId: string, name: string) {
  const { createVenue } = await import("@/lib/catalog/venues");
  const { createVenueSchema } = await import("@/lib/catalog/venue-schemas");
  return createVenue(
    organizationId,
    createVenueSchema.parse({
      name,
      address: { street: "Street 1", city: "Stockholm", postal_code: "111 57", country: "SE" },
      capacity: 1_000_000,
    }),
  );
}

/** A three-hour event `startsInDays` from now (30 by default, so its ticket types are on sale meanwhile). */
export async function benchEvent(
  organizationId: string,
  venueId: string,
  name: string,
  { startsInDays = 30, status = "published" }: { startsInDays?: number; status?: "draft" | "published" } = {},
) {
  const { createEvent } = await import("@/lib/catalog/events");
  const { createEventSchema } = await import("@/lib/catalog/event-schemas");
  const startsAt = Date.now() + startsInDays * DAY;
  return createEvent(
    organizationId,
    createEventSchema.parse({
      name,
      starts_at: new Date(startsAt).toISOString(),
      ends_at: new Date(startsAt + 3 * 3_600_000).toISOString(),
      venue_id: venueId,
      status,
    }),
  );
}

/** A ticket type of a million tickets (or `quantityTotal`), on sale from a day ago until a day before a 30-day-away event. */
export async function benchTicketType(organizationId: string, eventId: string, name: string, price: number, quantityTotal = 1_000_000) {
  const { createTicketType } = await import("@/lib/catalog/ticket-types");
  const { createTicketTypeSchema } = await import("@/lib/catalog/ticket-type-schemas");
  const now = Date.now();
  return createTicketType(
    organizationId,
    eventId,
    createTicketTypeSchema.parse({
      name,
      price,
      quantity_total: quantityTotal,
      sale_starts_at: new Date(now - DAY).toISOString(),
      sale_ends_at: new Date(now + 29 * DAY).toISOString(),
    }),
  );
}
