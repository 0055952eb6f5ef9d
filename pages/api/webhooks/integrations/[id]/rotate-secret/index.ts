import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { WEBHOOK_INTEGRATIONS } from "@/lib/openapi/operations/webhook-integrations";
import { rotateIntegrationSecret } from "@/lib/webhooks/integrations";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(WEBHOOK_INTEGRATIONS.rotateIntegrationSecret, async ({ principal, params, body }) =>
    ok(await rotateIntegrationSecret(principal.organizationId, params.id, body.expire_previous_in)),
  ),
);
