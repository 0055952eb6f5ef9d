import { createTicketType, listTicketTypes } from "@/lib/catalog/ticket-types";
import { created, endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { TICKET_TYPES } from "@/lib/openapi/operations/ticket-types";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(TICKET_TYPES.listTicketTypes, async ({ principal, params }) =>
    ok(await listTicketTypes(principal.organizationId, params.event_id)),
  ),
  endpoint(TICKET_TYPES.createTicketType, async ({ principal, params, body }) =>
    created(await createTicketType(principal.organizationId, params.event_id, body)),
  ),
);
