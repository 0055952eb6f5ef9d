import { endpoint, methods, ok } from "@/lib/http/route";
import { getDelivery } from "@/lib/webhooks/deliveries";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint<{ id: string }>({ dashboard: true }, async ({ principal, params }) =>
    ok(await getDelivery(principal.organizationId, params.id)),
  ),
});
