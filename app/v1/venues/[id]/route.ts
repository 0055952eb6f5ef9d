import { updateVenueSchema } from "@/lib/catalog/venue-schemas";
import { deleteVenue, getVenue, updateVenue } from "@/lib/catalog/venues";
import { endpoint, methods, noContent, ok } from "@/lib/http/route";

type Params = { id: string };

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint<Params>({ scope: "venues:read" }, async ({ principal, params }) =>
    ok(await getVenue(principal.organizationId, params.id)),
  ),
  PATCH: endpoint<Params>({ scope: "venues:write" }, async ({ principal, params, body }) =>
    ok(await updateVenue(principal.organizationId, params.id, body(updateVenueSchema))),
  ),
  DELETE: endpoint<Params>({ scope: "venues:write" }, async ({ principal, params }) => {
    await deleteVenue(principal.organizationId, params.id);
    return noContent();
  }),
});
