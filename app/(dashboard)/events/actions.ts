"use server";

import { z } from "zod";
import { createEventSchema, updateEventSchema } from "@/lib/catalog/event-schemas";
import { createEvent, deleteEvent, getEvent, updateEvent } from "@/lib/catalog/events";
import { createTicketTypeSchema, updateTicketTypeSchema } from "@/lib/catalog/ticket-type-schemas";
import { createTicketType, deleteTicketType, updateTicketType } from "@/lib/catalog/ticket-types";
import {
  deleteEventFormSchema,
  ENDED_EVENT_UNCONFIRMED,
  eventFormSchema,
  eventStatusFormSchema,
  ticketTypeFormSchema,
  ticketTypeIdFormSchema,
} from "@/lib/dashboard/events";
import { FORM_PARSE, formAction } from "@/lib/dashboard/form-action";
import { submittedValues, type FormState, type SavedFormState } from "@/lib/dashboard/forms";
import type { DashboardSession } from "@/lib/dashboard/session";
import { getOrganization } from "@/lib/organizations/organizations";

export type EventFormState = SavedFormState;

const keep = (input: Record<string, unknown>): SavedFormState => ({ values: submittedValues(input) });
const withId = { id: z.string().min(1) };

/** Form fields → API body, both zod checked, so the dashboard accepts exactly what POST /v1/events does. */
export const createEventAction = formAction({
  permission: "catalog",
  schema: eventFormSchema.pipe(createEventSchema),
  unknown: "This form is out of date; reload the page",
  keep,
  run: async (session, body): Promise<SavedFormState> => {
    const event = await createEvent(session.organizationId, body);
    return { saved: { id: event.id, name: event.name } };
  },
  revalidate: () => ["/events"],
});

export const updateEventAction = formAction({
  permission: "catalog",
  // An emptied description is cleared, not left as it was.
  schema: eventFormSchema.safeExtend(withId).transform(({ id, ...form }) => ({ id, body: { ...form, description: form.description ?? null } })),
  unknown: "Unknown event; reload the page",
  keep,
  run: async (session, { id, body }): Promise<SavedFormState> => {
    const event = await updateEvent(session.organizationId, id, updateEventSchema.parse(body, FORM_PARSE));
    return { saved: { id: event.id, name: event.name } };
  },
  revalidate: ({ id }) => ["/events", `/events/${id}`],
});

/**
 * The event as it is now, unless it has ended and the dialog's second confirmation was not given: cancelling
 * or deleting an event that took place refunds orders of people who attended.
 */
async function eventToChange(organizationId: string, id: string, acknowledged: boolean) {
  const event = await getEvent(organizationId, id);
  return event.has_ended && !acknowledged ? null : event;
}

/** Publish or cancel; cancelling refunds the event's paid orders. */
export const setEventStatusAction = formAction({
  permission: "catalog",
  schema: eventStatusFormSchema,
  hidden: ["id", "status", "acknowledge_ended"],
  unknown: "Unknown event or status; reload the page",
  run: async (session, { id, status, acknowledge_ended }): Promise<FormState> => {
    if (status === "cancelled" && !(await eventToChange(session.organizationId, id, acknowledge_ended === "yes"))) {
      return { error: ENDED_EVENT_UNCONFIRMED };
    }
    const event = await updateEvent(session.organizationId, id, { status });
    return { notice: `“${event.name}” ${status === "published" ? "is published" : "is cancelled; its paid orders are refunded"}.` };
  },
  revalidate: ({ id }) => ["/events", `/events/${id}`],
});

export const deleteEventAction = formAction({
  permission: "catalog",
  schema: deleteEventFormSchema,
  hidden: ["id", "acknowledge_ended"],
  unknown: "Unknown event; reload the page",
  run: async (session, { id, acknowledge_ended }): Promise<FormState> => {
    const event = await eventToChange(session.organizationId, id, acknowledge_ended === "yes");
    if (!event) return { error: ENDED_EVENT_UNCONFIRMED };
    await deleteEvent(session.organizationId, id);
    return { notice: `“${event.name}” is deleted.` };
  },
  revalidate: () => ["/events", "/orders"],
});

/** The ticket type form, amounts read in the organization's currency; the API body schema checks its fields in the call. */
async function ticketTypeFormOf(session: DashboardSession) {
  const organization = await getOrganization(session.organizationId);
  return ticketTypeFormSchema(organization!.currency);
}

export const createTicketTypeAction = formAction({
  permission: "catalog",
  schema: ticketTypeFormOf,
  hidden: ["event_id"],
  unknown: "Unknown event; reload the page",
  keep,
  run: async (session, { event_id: eventId, ...fields }): Promise<SavedFormState> => {
    const ticketType = await createTicketType(session.organizationId, eventId, createTicketTypeSchema.parse(fields, FORM_PARSE));
    return { saved: { id: ticketType.id, name: ticketType.name } };
  },
  revalidate: ({ event_id: eventId }) => [`/events/${eventId}`, "/events"],
});

/** Every field of the form is sent; the domain refuses a quantity below the tickets already sold. */
export const updateTicketTypeAction = formAction({
  permission: "catalog",
  schema: async (session: DashboardSession) => (await ticketTypeFormOf(session)).safeExtend(withId),
  hidden: ["id", "event_id"],
  unknown: "Unknown ticket type; reload the page",
  keep,
  run: async (session, { event_id: eventId, id, ...fields }): Promise<SavedFormState> => {
    const ticketType = await updateTicketType(session.organizationId, eventId, id, updateTicketTypeSchema.parse(fields, FORM_PARSE));
    return { saved: { id: ticketType.id, name: ticketType.name } };
  },
  revalidate: ({ event_id: eventId, id }) => [`/events/${eventId}`, `/events/${eventId}/ticket-types/${id}`, "/events"],
});

/** Refused by the domain once tickets of the type were sold: order items keep pointing at it. */
export const deleteTicketTypeAction = formAction({
  permission: "catalog",
  schema: ticketTypeIdFormSchema,
  hidden: ["id", "event_id"],
  unknown: "Unknown ticket type; reload the page",
  run: async (session, { event_id: eventId, id }): Promise<FormState> => {
    await deleteTicketType(session.organizationId, eventId, id);
    return { notice: "Ticket type deleted." };
  },
  revalidate: ({ event_id: eventId }) => [`/events/${eventId}`, "/events"],
});
