import { created, endpoint } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { WEBHOOK_DELIVERIES } from "@/lib/openapi/operations/webhook-deliveries";
import { redeliver } from "@/lib/webhooks/deliveries";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(WEBHOOK_DELIVERIES.redeliverDelivery, async ({ principal, params }) =>
    created(await redeliver(principal.organizationId, params.id)),
  ),
);
