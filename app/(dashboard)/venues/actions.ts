"use server";

import { revalidatePath } from "next/cache";
import { createVenueSchema } from "@/lib/catalog/venue-schemas";
import { createVenue } from "@/lib/catalog/venues";
import { fieldErrors, formObject, formStateOfApiError } from "@/lib/dashboard/forms";
import { requireSession } from "@/lib/dashboard/session";
import { venueFormSchema } from "@/lib/dashboard/venues";
import type { EventFormState } from "../events/actions";

export async function createVenueAction(_previous: EventFormState, formData: FormData): Promise<EventFormState> {
  const session = await requireSession();
  const input = formObject(formData);
  const values = Object.fromEntries(Object.entries(input).map(([name, value]) => [name, String(value)]));
  const form = venueFormSchema.safeParse(input);
  if (!form.success) return { values, fieldErrors: fieldErrors(form.error) };
  try {
    const venue = await createVenue(session.organizationId, createVenueSchema.parse(form.data));
    revalidatePath("/venues");
    revalidatePath("/events");
    return { saved: { id: venue.id, name: venue.name } };
  } catch (error) {
    return { values, ...formStateOfApiError(error) };
  }
}
