import { endpoint, methods, ok } from "@/lib/http/route";
import { listAttempts } from "@/lib/webhooks/deliveries";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint<{ id: string }>({ dashboard: true }, async ({ principal, params }) =>
    ok(await listAttempts(principal.organizationId, params.id)),
  ),
});
