import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { WEBHOOK_INTEGRATIONS } from "@/lib/openapi/operations/webhook-integrations";
import { getIntegrationSecret } from "@/lib/webhooks/integrations";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(WEBHOOK_INTEGRATIONS.getIntegrationSecret, async ({ principal, params }) =>
    ok(await getIntegrationSecret(principal.organizationId, params.id)),
  ),
);
