import { createVenueSchema } from "@/lib/catalog/venue-schemas";
import { createVenue, listVenues } from "@/lib/catalog/venues";
import { created, endpoint, methods, ok } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint({ scope: "venues:read" }, async ({ principal }) => ok(await listVenues(principal.organizationId))),
  POST: endpoint({ scope: "venues:write" }, async ({ principal, body }) =>
    created(await createVenue(principal.organizationId, body(createVenueSchema))),
  ),
});
