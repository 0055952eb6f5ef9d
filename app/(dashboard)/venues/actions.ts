"use server";

import { revalidatePath } from "next/cache";
import { createVenueSchema, updateVenueSchema } from "@/lib/catalog/venue-schemas";
import { createVenue, deleteVenue, updateVenue } from "@/lib/catalog/venues";
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
import { venueFormSchema } from "@/lib/dashboard/venues";
import type { EventFormState } from "../events/actions";

function revalidateVenues(id?: string) {
  revalidatePath("/venues");
  if (id) revalidatePath(`/venues/${id}`);
  // The event form lists venues, and events show their venue's name.
  revalidatePath("/events", "layout");
}

export async function createVenueAction(_previous: EventFormState, formData: FormData): Promise<EventFormState> {
  const session = await requireSession();
  const input = formObject(formData);
  const form = venueFormSchema.safeParse(input);
  if (!form.success) return { values: submittedValues(input), fieldErrors: fieldErrors(form.error) };
  try {
    const venue = await createVenue(session.organizationId, createVenueSchema.parse(form.data));
    revalidateVenues();
    return { saved: { id: venue.id, name: venue.name } };
  } catch (error) {
    return { values: submittedValues(input), ...formStateOfApiError(error) };
  }
}

/** The form sends every field; the domain's PATCH semantics keep whatever a field does not change. */
export async function updateVenueAction(_previous: EventFormState, formData: FormData): Promise<EventFormState> {
  const session = await requireSession();
  const { id, input } = editFormObject(formData);
  if (!id) return { values: submittedValues(input), error: "Unknown venue" };
  const form = venueFormSchema.safeParse(input);
  if (!form.success) return { values: submittedValues(input), fieldErrors: fieldErrors(form.error) };
  try {
    // Scoped to the session's organization: a foreign or deleted venue is "Venue not found".
    const venue = await updateVenue(session.organizationId, id, updateVenueSchema.parse(form.data));
    revalidateVenues(venue.id);
    return { saved: { id: venue.id, name: venue.name } };
  } catch (error) {
    return { values: submittedValues(input), ...formStateOfApiError(error) };
  }
}

/** Refused (409) while a not-deleted event takes place at the venue; the message says so next to the button. */
export async function deleteVenueAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const session = await requireSession();
  const parsed = idFormSchema.safeParse(formObject(formData));
  if (!parsed.success) return { error: "Unknown venue" };
  try {
    await deleteVenue(session.organizationId, parsed.data.id);
  } catch (error) {
    return formStateOfApiError(error);
  }
  revalidateVenues(parsed.data.id);
  return {};
}
