import { created, endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { WEBHOOK_INTEGRATIONS } from "@/lib/openapi/operations/webhook-integrations";
import { createIntegration, listIntegrations, withoutSecret } from "@/lib/webhooks/integrations";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(WEBHOOK_INTEGRATIONS.listIntegrations, async ({ principal }) =>
    ok({ data: (await listIntegrations(principal.organizationId)).map(withoutSecret) }),
  ),
  endpoint(WEBHOOK_INTEGRATIONS.createIntegration, async ({ principal, body }) =>
    created(
      await createIntegration({
        organizationId: principal.organizationId,
        url: body.url,
        events: body.events,
        description: body.description,
        retrySchedule: body.retry_schedule,
      }),
    ),
  ),
);
