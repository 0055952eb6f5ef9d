import { created, endpoint, methods } from "@/lib/http/route";
import { redeliver } from "@/lib/webhooks/deliveries";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint<{ id: string }>({ dashboard: true }, async ({ principal, params }) =>
    created(await redeliver(principal.organizationId, params.id)),
  ),
});
