import { createVenue, listVenues } from "@/lib/catalog/venues";
import { created, endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { VENUES } from "@/lib/openapi/operations/venues";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(VENUES.listVenues, async ({ principal }) => ok(await listVenues(principal.organizationId))),
  endpoint(VENUES.createVenue, async ({ principal, body }) => created(await createVenue(principal.organizationId, body))),
);
