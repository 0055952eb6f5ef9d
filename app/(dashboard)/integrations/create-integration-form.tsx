"use client";

import { FieldError, SubmitButton, TextField } from "../_components/form-controls";
import { createIntegrationAction, type CreateIntegrationState } from "./actions";
import { useFormAction } from "../_components/notices";

const EVENT_HINTS: Record<string, string> = {
  OrderCompleted: "an order was completed; the body is the full order",
};

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
        <fieldset aria-describedby={errors.events ? "events-error" : undefined}>
          <legend className="text-sm font-medium text-slate-800">Events</legend>
          <div className="mt-2 space-y-2">
            {eventTypes.map((event) => (
              <label key={event} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  name="events"
                  value={event}
                  defaultChecked={values ? values.events.includes(event) : true}
                  className="mt-0.5 h-4 w-4 rounded border-slate-400"
                />
                <span>
                  <code className="font-mono">{event}</code>
                  <span className="block text-xs text-slate-600">{EVENT_HINTS[event]}</span>
                </span>
              </label>
            ))}
          </div>
          <FieldError id="events-error" message={errors.events} />
        </fieldset>
        <SubmitButton pendingLabel="Adding…">Add webhook</SubmitButton>
      </form>
    </div>
  );
}
