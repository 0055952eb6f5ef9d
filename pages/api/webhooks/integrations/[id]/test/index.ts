import { created, endpoint } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { WEBHOOK_INTEGRATIONS } from "@/lib/openapi/operations/webhook-integrations";
import { getDelivery } from "@/lib/webhooks/deliveries";
import { sendTestDelivery } from "@/lib/webhooks/test-delivery";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(WEBHOOK_INTEGRATIONS.sendTestDelivery, async ({ principal, params }) =>
    created(await getDelivery(principal.organizationId, await sendTestDelivery(principal.organizationId, params.id))),
  ),
);
