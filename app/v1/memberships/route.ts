import { listMembershipsQuerySchema } from "@/lib/catalog/membership-schemas";
import { listMemberships } from "@/lib/catalog/memberships";
import { endpoint, methods, ok } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint({ scope: "memberships:read" }, async ({ principal, query }) =>
    ok(await listMemberships(principal.organizationId, query(listMembershipsQuerySchema))),
  ),
});
