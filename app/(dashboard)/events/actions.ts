"use server";

import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { createEventSchema, updateEventSchema } from "@/lib/catalog/event-schemas";
import { createEvent, deleteEvent, updateEvent } from "@/lib/catalog/events";
import { createTicketTypeSchema, updateTicketTypeSchema } from "@/lib/catalog/ticket-type-schemas";
import { createTicketType, deleteTicketType, updateTicketType } from "@/lib/catalog/ticket-types";
import { eventFormSchema, eventStatusFormSchema, ticketTypeFormSchema, ticketTypeIdFormSchema } from "@/lib/dashboard/events";
import {
  editFormObject,
  fieldErrors,
  formObject,
  formStateOfApiError,
  idFormSchema,
  submittedValues,
  type FormState,
} from "@/lib/dashboard/forms";
import { requireSession } from "@/lib/dashboard/session";
import { getOrganization } from "@/lib/organizations/organizations";

export interface EventFormState extends FormState {
  /** What was submitted, so a form with errors keeps the user's input. */
  values?: Record<string, string>;
  /** Set after a successful save, to announce it and reset the form. */
  saved?: { id: string; name: string };
}

/** Form fields → API body (both zod checked, so the dashboard accepts exactly what POST /v1/events does). */
function eventBody(input: Record<string, unknown>) {
  const form = eventFormSchema.safeParse(input);
  if (!form.success) return { errors: fieldErrors(form.error) } as const;
  return { body: form.data } as const;
}

export async function createEventAction(_previous: EventFormState, formData: FormData): Promise<EventFormState> {
  const session = await requireSession();
  const input = formObject(formData);
  const form = eventBody(input);
  if (form.errors) return { values: submittedValues(input), fieldErrors: form.errors };
  const body = createEventSchema.safeParse(form.body);
  if (!body.success) return { values: submittedValues(input), fieldErrors: fieldErrors(body.error) };
  try {
    const event = await createEvent(session.organizationId, body.data);
    revalidatePath("/events");
    return { saved: { id: event.id, name: event.name } };
  } catch (error) {
    return { values: submittedValues(input), ...formStateOfApiError(error) };
  }
}

export async function updateEventAction(_previous: EventFormState, formData: FormData): Promise<EventFormState> {
  const session = await requireSession();
  const { id, input } = editFormObject(formData);
  if (!id) return { values: submittedValues(input), error: "Unknown event" };
  const form = eventBody(input);
  if (form.errors) return { values: submittedValues(input), fieldErrors: form.errors };
  // An emptied description is cleared, not left as it was.
  const body = updateEventSchema.safeParse({ ...form.body, description: form.body.description ?? null });
  if (!body.success) return { values: submittedValues(input), fieldErrors: fieldErrors(body.error) };
  try {
    const event = await updateEvent(session.organizationId, id, body.data);
    revalidatePath("/events");
    revalidatePath(`/events/${event.id}`);
    return { saved: { id: event.id, name: event.name } };
  } catch (error) {
    return { values: submittedValues(input), ...formStateOfApiError(error) };
  }
}

/** Publish or cancel; cancelling refunds the event's paid orders. */
export async function setEventStatusAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const session = await requireSession();
  const parsed = eventStatusFormSchema.safeParse(formObject(formData));
  if (!parsed.success) return { error: "Unknown event or status" };
  try {
    await updateEvent(session.organizationId, parsed.data.id, { status: parsed.data.status });
  } catch (error) {
    return formStateOfApiError(error);
  }
  revalidatePath("/events");
  revalidatePath(`/events/${parsed.data.id}`);
  return {};
}

export async function deleteEventAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const session = await requireSession();
  const parsed = idFormSchema.safeParse(formObject(formData));
  if (!parsed.success) return { error: "Unknown event" };
  try {
    await deleteEvent(session.organizationId, parsed.data.id);
  } catch (error) {
    return formStateOfApiError(error);
  }
  revalidatePath("/events");
  revalidatePath("/orders");
  return {};
}

/**
 * The ticket type form as the API body `schema` checks (create or update), with the event it belongs to;
 * amounts are read in the organization's currency.
 */
async function ticketTypeBody<S extends typeof createTicketTypeSchema | typeof updateTicketTypeSchema>(
  organizationId: string,
  input: Record<string, unknown>,
  schema: S,
) {
  const organization = await getOrganization(organizationId);
  const form = ticketTypeFormSchema(organization!.currency).safeParse(input);
  if (!form.success) return { errors: fieldErrors(form.error) } as const;
  const { event_id: eventId, ...fields } = form.data;
  const body = schema.safeParse(fields);
  if (!body.success) return { errors: fieldErrors(body.error) } as const;
  return { eventId, body: body.data as z.output<S> } as const;
}

export async function createTicketTypeAction(_previous: EventFormState, formData: FormData): Promise<EventFormState> {
  const session = await requireSession();
  const input = formObject(formData);
  const form = await ticketTypeBody(session.organizationId, input, createTicketTypeSchema);
  if (form.errors) return { values: submittedValues(input), fieldErrors: form.errors };
  try {
    const ticketType = await createTicketType(session.organizationId, form.eventId, form.body);
    revalidatePath(`/events/${form.eventId}`);
    revalidatePath("/events");
    return { saved: { id: ticketType.id, name: ticketType.name } };
  } catch (error) {
    return { values: submittedValues(input), ...formStateOfApiError(error) };
  }
}

/** Every field of the form is sent; the domain refuses a quantity below the tickets already sold. */
export async function updateTicketTypeAction(_previous: EventFormState, formData: FormData): Promise<EventFormState> {
  const session = await requireSession();
  const { id, input } = editFormObject(formData);
  if (!id) return { values: submittedValues(input), error: "Unknown ticket type" };
  const form = await ticketTypeBody(session.organizationId, input, updateTicketTypeSchema);
  if (form.errors) return { values: submittedValues(input), fieldErrors: form.errors };
  try {
    const ticketType = await updateTicketType(session.organizationId, form.eventId, id, form.body);
    revalidatePath(`/events/${form.eventId}`);
    revalidatePath(`/events/${form.eventId}/ticket-types/${ticketType.id}`);
    revalidatePath("/events");
    return { saved: { id: ticketType.id, name: ticketType.name } };
  } catch (error) {
    return { values: submittedValues(input), ...formStateOfApiError(error) };
  }
}

/** Refused by the domain once tickets of the type were sold: order items keep pointing at it. */
export async function deleteTicketTypeAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const session = await requireSession();
  const parsed = ticketTypeIdFormSchema.safeParse(formObject(formData));
  if (!parsed.success) return { error: "Unknown ticket type" };
  try {
    await deleteTicketType(session.organizationId, parsed.data.event_id, parsed.data.id);
  } catch (error) {
    return formStateOfApiError(error);
  }
  revalidatePath(`/events/${parsed.data.event_id}`);
  revalidatePath("/events");
  return {};
}
