import { endpoint, methods, ok } from "@/lib/http/route";
import { getOrder } from "@/lib/orders/orders";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint<{ id: string }>({ scope: "orders:read" }, async ({ principal, params }) =>
    ok(await getOrder(principal.organizationId, params.id)),
  ),
});
