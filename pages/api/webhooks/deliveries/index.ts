import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { WEBHOOK_DELIVERIES } from "@/lib/openapi/operations/webhook-deliveries";
import { listDeliveries } from "@/lib/webhooks/deliveries";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(WEBHOOK_DELIVERIES.listDeliveries, async ({ principal, query }) =>
    ok(await listDeliveries(principal.organizationId, query)),
  ),
);
