import { updateTicketTypeSchema } from "@/lib/catalog/ticket-type-schemas";
import { deleteTicketType, updateTicketType } from "@/lib/catalog/ticket-types";
import { endpoint, methods, noContent, ok } from "@/lib/http/route";

type Params = { event_id: string; ticket_id: string };

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PATCH: endpoint<Params>({ scope: "events:write" }, async ({ principal, params, body }) =>
    ok(await updateTicketType(principal.organizationId, params.event_id, params.ticket_id, body(updateTicketTypeSchema))),
  ),
  DELETE: endpoint<Params>({ scope: "events:write" }, async ({ principal, params }) => {
    await deleteTicketType(principal.organizationId, params.event_id, params.ticket_id);
    return noContent();
  }),
});
