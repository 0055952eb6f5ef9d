"use client";

import { SubmitButton, TextField } from "../_components/form-controls";
import { createIntegrationAction, type CreateIntegrationState } from "./actions";
import { useFormAction } from "../_components/notices";
import { EventPicker } from "./event-picker";

/** `eventTypes` come from the server so the schema module stays out of the browser bundle. */
export function CreateIntegrationForm({ eventTypes }: { eventTypes: readonly string[] }) {
  const [state, action] = useFormAction<CreateIntegrationState>(createIntegrationAction, {});
  const values = state.values;
  const errors = state.fieldErrors ?? {};
  return (
    <div className="space-y-4">
      {state.created && (
        <p role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 p-4 font-medium text-emerald-900">
          Webhook for <span className="break-all">{state.created.url}</span> added. Reveal its signing secret in the
          list above.
        </p>
      )}
      {state.error && !state.fieldErrors?.url && (
        <p role="alert" className="text-sm text-red-700">
          {state.error}
        </p>
      )}
      <form action={action} noValidate className="space-y-4" key={state.created?.id ?? "form"}>
        <TextField
          label="Endpoint URL"
          name="url"
          type="url"
          inputMode="url"
          placeholder="https://example.com/webhooks/tickets"
          hint="HTTPS only; the endpoint answers a JSON POST with any 2xx status."
          maxLength={2000}
          defaultValue={values?.url}
          error={errors.url}
          required
        />
        <TextField label="Description (optional)" name="description" maxLength={500} defaultValue={values?.description} error={errors.description} />
        <EventPicker eventTypes={eventTypes} checked={values ? values.events : null} error={errors.events} />
        <SubmitButton pendingLabel="Adding…">Add webhook</SubmitButton>
      </form>
    </div>
  );
}
