import {
  createEventSchema,
  eventListSchema,
  eventSchema,
  listEventsQuerySchema,
  updateEventSchema,
} from "@/lib/catalog/event-schemas";
import { defineResource } from "@/lib/http/operation";
import { EVENT_EXAMPLE, onePage } from "./examples";

const EVENT_ID = { event_id: "Event id (evt_…)" };

export const EVENTS = defineResource(
  { name: "Events", description: "Events and their status transitions (draft, published, cancelled)." },
  {
    listEvents: {
      method: "get",
      path: "/v1/events",
      summary: "List events",
      description: "A page of the organization's events, newest first; deleted events are left out.",
      access: { scope: "events:read" },
      query: listEventsQuerySchema,
      response: { status: 200, description: "A page of events", schema: eventListSchema, name: "EventList", example: onePage(EVENT_EXAMPLE) },
    },
    createEvent: {
      method: "post",
      path: "/v1/events",
      summary: "Create an event",
      description: "starts_at must be before ends_at; venue_id must be a venue of the organization (else 400).",
      access: { scope: "events:write" },
      body: createEventSchema,
      bodyExample: {
        name: "Summer Festival",
        description: "Three stages, one night.",
        starts_at: "2026-07-01T18:00:00Z",
        ends_at: "2026-07-02T02:00:00Z",
        venue_id: "ven_0190f0a1b2c37d4e8f9a0b1c2d3e4f50",
        status: "published",
      },
      response: { status: 201, description: "The created event", schema: eventSchema, name: "Event", example: EVENT_EXAMPLE },
      location: "/v1/events/{id}",
    },
    getEvent: {
      method: "get",
      path: "/v1/events/{event_id}",
      summary: "Get an event",
      description: "One event of the organization; a cancelled event stays readable, a deleted one is 404.",
      access: { scope: "events:read" },
      params: EVENT_ID,
      response: { status: 200, description: "The event", schema: eventSchema, name: "Event", example: EVENT_EXAMPLE },
    },
    updateEvent: {
      method: "patch",
      path: "/v1/events/{event_id}",
      summary: "Update an event",
      description:
        "Any subset of the fields. Status transitions: draft→published, draft→cancelled, published→cancelled. " +
        "Cancelling cancels the ticket types and refunds every completed order (reason event_cancelled) but keeps the event readable.",
      access: { scope: "events:write" },
      params: EVENT_ID,
      body: updateEventSchema,
      bodyExample: { status: "cancelled" },
      response: { status: 200, description: "The updated event", schema: eventSchema, name: "Event", example: { ...EVENT_EXAMPLE, status: "cancelled", updated_at: "2026-05-10T15:00:00.000Z" } },
      conflict: "A status transition that is not allowed (anything out of cancelled).",
    },
    deleteEvent: {
      method: "delete",
      path: "/v1/events/{event_id}",
      summary: "Delete an event",
      description:
        "Irreversible, in one transaction: the event disappears from every read, its ticket types become cancelled " +
        "and every completed order of the event is refunded with reason event_deleted.",
      access: { scope: "events:write" },
      params: EVENT_ID,
      response: { status: 204, description: "Deleted" },
    },
  },
);
