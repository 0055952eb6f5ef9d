import { deleteEvent, getEvent, updateEvent } from "@/lib/catalog/events";
import { endpoint, noContent, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { EVENTS } from "@/lib/openapi/operations/events";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(EVENTS.getEvent, async ({ principal, params }) => ok(await getEvent(principal.organizationId, params.event_id))),
  endpoint(EVENTS.updateEvent, async ({ principal, params, body }) =>
    ok(await updateEvent(principal.organizationId, params.event_id, body)),
  ),
  endpoint(EVENTS.deleteEvent, async ({ principal, params }) => {
    await deleteEvent(principal.organizationId, params.event_id);
    return noContent();
  }),
);
