import { updateEventSchema } from "@/lib/catalog/event-schemas";
import { deleteEvent, getEvent, updateEvent } from "@/lib/catalog/events";
import { endpoint, methods, noContent, ok } from "@/lib/http/route";

type Params = { event_id: string };

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint<Params>({ scope: "events:read" }, async ({ principal, params }) =>
    ok(await getEvent(principal.organizationId, params.event_id)),
  ),
  PATCH: endpoint<Params>({ scope: "events:write" }, async ({ principal, params, body }) =>
    ok(await updateEvent(principal.organizationId, params.event_id, body(updateEventSchema))),
  ),
  DELETE: endpoint<Params>({ scope: "events:write" }, async ({ principal, params }) => {
    await deleteEvent(principal.organizationId, params.event_id);
    return noContent();
  }),
});
