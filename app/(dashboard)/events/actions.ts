"use server";

import { revalidatePath } from "next/cache";
import { createEventSchema, updateEventSchema } from "@/lib/catalog/event-schemas";
import { createEvent, deleteEvent, updateEvent } from "@/lib/catalog/events";
import { createTicketTypeSchema } from "@/lib/catalog/ticket-type-schemas";
import { createTicketType } from "@/lib/catalog/ticket-types";
import { eventFormSchema, eventIdFormSchema, eventStatusFormSchema, ticketTypeFormSchema } from "@/lib/dashboard/events";
import { fieldErrors, formObject, formStateOfApiError, type FormState } from "@/lib/dashboard/forms";
import { requireSession } from "@/lib/dashboard/session";
import { getOrganization } from "@/lib/organizations/organizations";

export interface EventFormState extends FormState {
  /** What was submitted, so a form with errors keeps the user's input. */
  values?: Record<string, string>;
  /** Set after a successful save, to announce it and reset the form. */
  saved?: { id: string; name: string };
}

function submitted(input: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(input).map(([name, value]) => [name, String(value ?? "")]));
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
  if (form.errors) return { values: submitted(input), fieldErrors: form.errors };
  const body = createEventSchema.safeParse(form.body);
  if (!body.success) return { values: submitted(input), fieldErrors: fieldErrors(body.error) };
  try {
    const event = await createEvent(session.organizationId, body.data);
    revalidatePath("/events");
    return { saved: { id: event.id, name: event.name } };
  } catch (error) {
    return { values: submitted(input), ...formStateOfApiError(error) };
  }
}

export async function updateEventAction(_previous: EventFormState, formData: FormData): Promise<EventFormState> {
  const session = await requireSession();
  const { id, ...input } = formObject(formData);
  const form = eventBody(input);
  if (form.errors) return { values: submitted(input), fieldErrors: form.errors };
  // An emptied description is cleared, not left as it was.
  const body = updateEventSchema.safeParse({ ...form.body, description: form.body.description ?? null });
  if (!body.success) return { values: submitted(input), fieldErrors: fieldErrors(body.error) };
  try {
    const event = await updateEvent(session.organizationId, String(id), body.data);
    revalidatePath("/events");
    revalidatePath(`/events/${event.id}`);
    return { saved: { id: event.id, name: event.name } };
  } catch (error) {
    return { values: submitted(input), ...formStateOfApiError(error) };
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
  const parsed = eventIdFormSchema.safeParse(formObject(formData));
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

export async function createTicketTypeAction(_previous: EventFormState, formData: FormData): Promise<EventFormState> {
  const session = await requireSession();
  const organization = await getOrganization(session.organizationId);
  const input = formObject(formData);
  const form = ticketTypeFormSchema(organization!.currency).safeParse(input);
  if (!form.success) return { values: submitted(input), fieldErrors: fieldErrors(form.error) };
  const { event_id: eventId, ...fields } = form.data;
  const body = createTicketTypeSchema.safeParse(fields);
  if (!body.success) return { values: submitted(input), fieldErrors: fieldErrors(body.error) };
  try {
    const ticketType = await createTicketType(session.organizationId, eventId, body.data);
    revalidatePath(`/events/${eventId}`);
    revalidatePath("/events");
    return { saved: { id: ticketType.id, name: ticketType.name } };
  } catch (error) {
    return { values: submitted(input), ...formStateOfApiError(error) };
  }
}
