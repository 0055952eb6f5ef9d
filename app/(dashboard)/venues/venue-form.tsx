"use client";

import type { Venue } from "@/lib/catalog/venue-schemas";
import { FormOutcome, SubmitButton, TextField } from "../_components/form-controls";
import type { EventFormState } from "../events/actions";
import { createVenueAction, updateVenueAction } from "./actions";
import { useFormAction } from "../_components/notices";

/** Creates a venue, or edits `venue` when given. */
export function VenueForm({ venue }: { venue?: Venue }) {
  const [state, action] = useFormAction<EventFormState>(venue ? updateVenueAction : createVenueAction, {});
  const errors = state.fieldErrors ?? {};
  // After an error the user's input; otherwise, when editing, what is stored.
  const value = (name: string, stored: string | number | undefined) => state.values?.[name] ?? (stored === undefined ? undefined : String(stored));
  return (
    <form action={action} noValidate className="space-y-4" key={state.saved && !venue ? state.saved.id : "form"}>
      <FormOutcome
        saved={state.saved && (venue ? "Saved." : `Venue “${state.saved.name}” created.`)}
        error={Object.keys(errors).length ? undefined : state.error}
      />
      {venue && <input type="hidden" name="id" value={venue.id} />}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <TextField label="Name" name="name" maxLength={200} defaultValue={value("name", venue?.name)} error={errors.name} required />
        <TextField
          label="Street"
          name="street"
          maxLength={200}
          defaultValue={value("street", venue?.address.street)}
          error={errors.street}
          required
        />
        <TextField label="City" name="city" maxLength={100} defaultValue={value("city", venue?.address.city)} error={errors.city} required />
        <TextField
          label="Postal code"
          name="postal_code"
          maxLength={20}
          defaultValue={value("postal_code", venue?.address.postal_code)}
          error={errors.postal_code}
          required
        />
        <TextField
          label="Country"
          name="country"
          maxLength={2}
          hint="Two-letter code, e.g. SE"
          defaultValue={value("country", venue?.address.country)}
          error={errors.country}
          required
        />
        <TextField
          label="Capacity"
          name="capacity"
          type="number"
          inputMode="numeric"
          min={1}
          defaultValue={value("capacity", venue?.capacity)}
          error={errors.capacity}
          required
        />
      </div>
      <SubmitButton pendingLabel={venue ? "Saving…" : "Creating…"}>{venue ? "Save changes" : "Create venue"}</SubmitButton>
    </form>
  );
}
