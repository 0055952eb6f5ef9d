import { endpoint, noContent, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { WEBHOOK_INTEGRATIONS } from "@/lib/openapi/operations/webhook-integrations";
import { deleteIntegration, getIntegration, updateIntegration, withoutSecret } from "@/lib/webhooks/integrations";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(WEBHOOK_INTEGRATIONS.getIntegration, async ({ principal, params }) =>
    ok(withoutSecret(await getIntegration(principal.organizationId, params.id))),
  ),
  endpoint(WEBHOOK_INTEGRATIONS.updateIntegration, async ({ principal, params, body }) =>
    ok(
      withoutSecret(
        await updateIntegration(principal.organizationId, params.id, {
          url: body.url,
          events: body.events,
          description: body.description,
          enabled: body.enabled,
          retrySchedule: body.retry_schedule,
        }),
      ),
    ),
  ),
  endpoint(WEBHOOK_INTEGRATIONS.deleteIntegration, async ({ principal, params }) => {
    await deleteIntegration(principal.organizationId, params.id);
    return noContent();
  }),
);
