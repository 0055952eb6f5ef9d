import { createEventSchema, listEventsQuerySchema } from "@/lib/catalog/event-schemas";
import { createEvent, listEvents } from "@/lib/catalog/events";
import { created, endpoint, methods, ok } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint({ scope: "events:read" }, async ({ principal, query }) =>
    ok(await listEvents(principal.organizationId, query(listEventsQuerySchema))),
  ),
  POST: endpoint({ scope: "events:write" }, async ({ principal, body }) =>
    created(await createEvent(principal.organizationId, body(createEventSchema))),
  ),
});
