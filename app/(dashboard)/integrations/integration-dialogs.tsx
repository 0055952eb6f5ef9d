"use client";

import { useRef, type ReactNode } from "react";
import type { IntegrationRow } from "@/lib/dashboard/integrations";
import type { FormState } from "@/lib/dashboard/forms";
import { buttonClasses } from "../_components/button-classes";
import { SubmitButton, TextField } from "../_components/form-controls";
import { useFormAction } from "../_components/notices";
import { deleteIntegrationAction, editIntegrationAction, recoverAction } from "./actions";
import { EventPicker } from "./event-picker";

/**
 * A button that opens a modal form for one integration; the form closes when its action succeeds.
 * `body` gets the action's latest state (field errors, results).
 */
export function IntegrationDialog<S extends FormState>({
  integration,
  trigger,
  title,
  action: serverAction,
  submit,
  pendingLabel,
  variant = "primary",
  body,
  result,
}: {
  integration: IntegrationRow;
  trigger: string;
  title: string;
  action: (previous: S, formData: FormData) => Promise<S>;
  submit: string;
  pendingLabel: string;
  variant?: "primary" | "danger";
  body: (state: S) => ReactNode;
  /** Shown beside the button once the dialog has closed (e.g. a new secret). */
  result?: (state: S) => ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, action] = useFormAction<S>(serverAction, {} as S, (result) => {
    if (!result.error) dialog.current?.close();
  });
  const titleId = `${trigger.replace(/\W+/g, "-").toLowerCase()}-title-${integration.id}`;
  return (
    <div>
      <button type="button" className={buttonClasses.secondary} onClick={() => dialog.current?.showModal()}>
        {trigger}
        <span className="sr-only"> of {integration.url}</span>
      </button>
      {state.error && !state.fieldErrors && <p className="mt-1 text-sm text-red-700">{state.error}</p>}
      {result?.(state)}
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[min(32rem,calc(100%-2rem))] rounded-xl p-0 shadow-xl backdrop:bg-slate-900/50"
      >
        <form action={action} noValidate className="space-y-4 p-5">
          <input type="hidden" name="id" value={integration.id} />
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {body(state)}
          {state.error && state.fieldErrors && <p className="text-sm text-red-700">{state.error}</p>}
          <div className="flex justify-end gap-2">
            <button type="button" className={buttonClasses.secondary} onClick={() => dialog.current?.close()}>
              Close
            </button>
            <SubmitButton variant={variant} pendingLabel={pendingLabel}>
              {submit}
            </SubmitButton>
          </div>
        </form>
      </dialog>
    </div>
  );
}

/** URL, description and events, checked like on create. */
export function EditIntegrationButton({ integration, eventTypes }: { integration: IntegrationRow; eventTypes: readonly string[] }) {
  return (
    <IntegrationDialog
      integration={integration}
      trigger="Edit"
      title="Edit webhook"
      action={editIntegrationAction}
      submit="Save"
      pendingLabel="Saving…"
      body={(state) => (
        <>
          <TextField label="Webhook URL" name="url" type="url" inputMode="url" maxLength={2000} defaultValue={integration.url} error={state.fieldErrors?.url} required />
          <TextField label="Description (optional)" name="description" maxLength={500} defaultValue={integration.description} error={state.fieldErrors?.description} />
          <EventPicker eventTypes={eventTypes} checked={integration.events} error={state.fieldErrors?.events} />
        </>
      )}
    />
  );
}

export function DeleteIntegrationButton({ integration }: { integration: IntegrationRow }) {
  return (
    <IntegrationDialog
      integration={integration}
      trigger="Delete"
      title="Delete this webhook?"
      action={deleteIntegrationAction}
      submit="Delete webhook"
      pendingLabel="Deleting…"
      variant="danger"
      body={() => (
        <p className="text-sm text-slate-700">
          Nothing more is sent to <span className="font-mono break-all">{integration.url}</span>; deliveries still waiting end as
          permanently failed (&ldquo;integration deleted&rdquo;). The delivery history stays readable.
        </p>
      )}
    />
  );
}

/** Bulk recovery of a window's permanently failed deliveries; progress shows in the row until all are done. */
export function RecoverButton({ integration }: { integration: IntegrationRow }) {
  return (
    <IntegrationDialog
      integration={integration}
      trigger="Recover failed"
      title="Recover failed deliveries"
      action={recoverAction}
      submit="Recover"
      pendingLabel="Queuing…"
      body={(state) => (
        <>
          <p className="text-sm text-slate-700">
            Every permanently failed delivery created in this window that was not redelivered yet is sent again, once.
          </p>
          <TextField label="Since (UTC)" name="since" type="datetime-local" error={state.fieldErrors?.since} required />
          <TextField label="Until (UTC, empty for now)" name="until" type="datetime-local" error={state.fieldErrors?.until} />
        </>
      )}
    />
  );
}
