import { createEvent, listEvents } from "@/lib/catalog/events";
import { created, endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { EVENTS } from "@/lib/openapi/operations/events";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(EVENTS.listEvents, async ({ principal, query }) => ok(await listEvents(principal.organizationId, query))),
  endpoint(EVENTS.createEvent, async ({ principal, body }) => created(await createEvent(principal.organizationId, body))),
);
