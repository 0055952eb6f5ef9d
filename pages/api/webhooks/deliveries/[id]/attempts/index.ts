import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { WEBHOOK_DELIVERIES } from "@/lib/openapi/operations/webhook-deliveries";
import { listAttempts } from "@/lib/webhooks/deliveries";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(WEBHOOK_DELIVERIES.listDeliveryAttempts, async ({ principal, params }) =>
    ok(await listAttempts(principal.organizationId, params.id)),
  ),
);
