import { deleteVenue, getVenue, updateVenue } from "@/lib/catalog/venues";
import { endpoint, noContent, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { VENUES } from "@/lib/openapi/operations/venues";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(VENUES.getVenue, async ({ principal, params }) => ok(await getVenue(principal.organizationId, params.id))),
  endpoint(VENUES.updateVenue, async ({ principal, params, body }) =>
    ok(await updateVenue(principal.organizationId, params.id, body)),
  ),
  endpoint(VENUES.deleteVenue, async ({ principal, params }) => {
    await deleteVenue(principal.organizationId, params.id);
    return noContent();
  }),
);
