import { deleteTicketType, updateTicketType } from "@/lib/catalog/ticket-types";
import { endpoint, noContent, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { TICKET_TYPES } from "@/lib/openapi/operations/ticket-types";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(TICKET_TYPES.updateTicketType, async ({ principal, params, body }) =>
    ok(await updateTicketType(principal.organizationId, params.event_id, params.id, body)),
  ),
  endpoint(TICKET_TYPES.deleteTicketType, async ({ principal, params }) => {
    await deleteTicketType(principal.organizationId, params.event_id, params.id);
    return noContent();
  }),
);
