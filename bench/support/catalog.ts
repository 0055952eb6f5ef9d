/**
 * A venue with room for any benchmark's orders, created through the request schema as the API hands it to
 * the domain function. The app's modules load here, after the caller pointed the environment at its database.
 */
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
