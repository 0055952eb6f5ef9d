"use client";

import { useActionState } from "react";
import { SubmitButton, TextField } from "../../_components/form-controls";
import { createTicketTypeAction, type EventFormState } from "../actions";

export function TicketTypeForm({ eventId, currency }: { eventId: string; currency: string }) {
  const [state, action] = useActionState<EventFormState, FormData>(createTicketTypeAction, {});
  const errors = state.fieldErrors ?? {};
  const values = state.values;
  return (
    <form action={action} noValidate className="space-y-4" key={state.saved?.id ?? "form"}>
      <div role="status">
        {state.saved && (
          <p className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
            Ticket type “{state.saved.name}” added.
          </p>
        )}
        {state.error && !Object.keys(errors).length && <p className="text-sm text-red-700">{state.error}</p>}
      </div>
      <input type="hidden" name="event_id" value={eventId} />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <TextField label="Name" name="name" maxLength={200} defaultValue={values?.name} error={errors.name} required />
        <TextField label="Category (optional)" name="category" maxLength={100} defaultValue={values?.category} error={errors.category} />
        <TextField
          label={`Price (${currency})`}
          name="price"
          inputMode="decimal"
          defaultValue={values?.price}
          error={errors.price}
          required
        />
        <TextField
          label="Tickets on offer"
          name="quantity_total"
          type="number"
          inputMode="numeric"
          min={0}
          defaultValue={values?.quantity_total}
          error={errors.quantity_total}
          required
        />
        <TextField
          label="VAT % (optional)"
          name="vat"
          inputMode="decimal"
          defaultValue={values?.vat}
          error={errors.vat}
        />
        <span className="hidden lg:block" />
        <TextField
          label="Sale starts (UTC)"
          name="sale_starts_at"
          type="datetime-local"
          hint="In UTC"
          defaultValue={values?.sale_starts_at}
          error={errors.sale_starts_at}
          required
        />
        <TextField
          label="Sale ends (UTC)"
          name="sale_ends_at"
          type="datetime-local"
          hint="In UTC, after the start"
          defaultValue={values?.sale_ends_at}
          error={errors.sale_ends_at}
          required
        />
      </div>
      <SubmitButton pendingLabel="Adding…">Add ticket type</SubmitButton>
    </form>
  );
}
