import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { WEBHOOK_INTEGRATIONS } from "@/lib/openapi/operations/webhook-integrations";
import { recoverFailedDeliveries } from "@/lib/webhooks/recovery";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(WEBHOOK_INTEGRATIONS.recoverDeliveries, async ({ principal, params, body }) =>
    ok(
      await recoverFailedDeliveries(
        principal.organizationId,
        params.id,
        { since: new Date(body.since), until: body.until === undefined ? undefined : new Date(body.until) },
        principal.userId,
      ),
    ),
  ),
);
