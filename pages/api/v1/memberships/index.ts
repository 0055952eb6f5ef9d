import { listMemberships } from "@/lib/catalog/memberships";
import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { MEMBERSHIPS } from "@/lib/openapi/operations/memberships";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(MEMBERSHIPS.listMemberships, async ({ principal, query }) =>
    ok(await listMemberships(principal.organizationId, query)),
  ),
);
