"use client";

import { useActionState } from "react";
import { SubmitButton, TextField } from "../_components/form-controls";
import type { EventFormState } from "../events/actions";
import { createVenueAction } from "./actions";

export function VenueForm() {
  const [state, action] = useActionState<EventFormState, FormData>(createVenueAction, {});
  const errors = state.fieldErrors ?? {};
  const values = state.values;
  return (
    <form action={action} noValidate className="space-y-4" key={state.saved?.id ?? "form"}>
      <div role="status">
        {state.saved && (
          <p className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
            Venue “{state.saved.name}” created.
          </p>
        )}
        {state.error && !Object.keys(errors).length && <p className="text-sm text-red-700">{state.error}</p>}
      </div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <TextField label="Name" name="name" maxLength={200} defaultValue={values?.name} error={errors.name} required />
        <TextField label="Street" name="street" maxLength={200} defaultValue={values?.street} error={errors.street} required />
        <TextField label="City" name="city" maxLength={100} defaultValue={values?.city} error={errors.city} required />
        <TextField
          label="Postal code"
          name="postal_code"
          maxLength={20}
          defaultValue={values?.postal_code}
          error={errors.postal_code}
          required
        />
        <TextField
          label="Country"
          name="country"
          maxLength={2}
          hint="Two-letter code, e.g. SE"
          defaultValue={values?.country}
          error={errors.country}
          required
        />
        <TextField
          label="Capacity"
          name="capacity"
          type="number"
          inputMode="numeric"
          min={1}
          defaultValue={values?.capacity}
          error={errors.capacity}
          required
        />
      </div>
      <SubmitButton pendingLabel="Creating…">Create venue</SubmitButton>
    </form>
  );
}
