import { endpoint, methods, ok } from "@/lib/http/route";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { listDeliveriesQuerySchema } from "@/lib/webhooks/delivery-schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint({ dashboard: true }, async ({ principal, query }) =>
    ok(await listDeliveries(principal.organizationId, query(listDeliveriesQuerySchema))),
  ),
});
