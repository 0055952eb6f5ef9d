"use server";

import { createVenueSchema, updateVenueSchema } from "@/lib/catalog/venue-schemas";
import { createVenue, deleteVenue, updateVenue } from "@/lib/catalog/venues";
import { FORM_PARSE, formAction, type RevalidateTarget } from "@/lib/dashboard/form-action";
import { idFormSchema, submittedValues, type FormState, type SavedFormState } from "@/lib/dashboard/forms";
import { venueFormSchema } from "@/lib/dashboard/venues";

const keep = (input: Record<string, unknown>): SavedFormState => ({ values: submittedValues(input) });

// The event form lists venues, and events show their venue's name.
const venuePaths = (id?: string): RevalidateTarget[] => ["/venues", ...(id ? [`/venues/${id}`] : []), { layout: "/events" }];

export const createVenueAction = formAction({
  permission: "catalog",
  schema: venueFormSchema,
  unknown: "This form is out of date; reload the page",
  keep,
  run: async (session, form): Promise<SavedFormState> => {
    const venue = await createVenue(session.organizationId, createVenueSchema.parse(form, FORM_PARSE));
    return { saved: { id: venue.id, name: venue.name } };
  },
  revalidate: () => venuePaths(),
});

/** The form sends every field; the domain's PATCH semantics keep whatever a field does not change. */
export const updateVenueAction = formAction({
  permission: "catalog",
  // The id is checked first; the fields by the form schema in the call, so their errors land at the fields.
  schema: idFormSchema.loose(),
  unknown: "Unknown venue; reload the page",
  keep,
  // Scoped to the session's organization: a foreign or deleted venue is "Venue not found".
  run: async (session, { id, ...form }): Promise<SavedFormState> => {
    const venue = await updateVenue(session.organizationId, id, updateVenueSchema.parse(venueFormSchema.parse(form, FORM_PARSE), FORM_PARSE));
    return { saved: { id: venue.id, name: venue.name } };
  },
  revalidate: ({ id }) => venuePaths(id),
});

/** Refused (409) while a not-deleted event takes place at the venue; the message says so next to the button. */
export const deleteVenueAction = formAction({
  permission: "catalog",
  schema: idFormSchema,
  unknown: "Unknown venue; reload the page",
  run: async (session, { id }): Promise<FormState> => {
    await deleteVenue(session.organizationId, id);
    return { notice: "Venue deleted." };
  },
  revalidate: ({ id }) => venuePaths(id),
});
