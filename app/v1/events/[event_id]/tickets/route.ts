import { createTicketTypeSchema } from "@/lib/catalog/ticket-type-schemas";
import { createTicketType, listTicketTypes } from "@/lib/catalog/ticket-types";
import { created, endpoint, methods, ok } from "@/lib/http/route";

type Params = { event_id: string };

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint<Params>({ scope: "events:read" }, async ({ principal, params }) =>
    ok(await listTicketTypes(principal.organizationId, params.event_id)),
  ),
  POST: endpoint<Params>({ scope: "events:write" }, async ({ principal, params, body }) =>
    created(await createTicketType(principal.organizationId, params.event_id, body(createTicketTypeSchema))),
  ),
});
