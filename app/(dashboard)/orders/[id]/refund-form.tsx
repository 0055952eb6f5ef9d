"use client";

import { useRef } from "react";
import { buttonClasses } from "../../_components/button-classes";
import { FieldError, SubmitButton } from "../../_components/form-controls";
import { refundOrderAction, type RefundFormState } from "../actions";
import { useFormAction } from "../../_components/notices";
import { inputClasses } from "../../_components/input-classes";

/** Refunding is irreversible, so the reason is entered in a modal dialog that asks for confirmation. */
export function RefundForm({ uuid, orderNumber, total }: { uuid: string; orderNumber: number; total: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  // A field error is for the user to fix in the dialog, so it stays open; anything else is shown beside the button.
  const [state, action] = useFormAction<RefundFormState>(refundOrderAction, {}, (result) => {
    if (!result.fieldErrors?.reason) dialog.current?.close();
  });
  const reasonError = state.fieldErrors?.reason;
  return (
    <div className="space-y-2">
      <button type="button" className={buttonClasses.danger} onClick={() => dialog.current?.showModal()}>
        Refund order
      </button>
      <div role="status">
        {state.error && (
          <p className="text-sm text-red-700" data-testid="refund-error">
            {state.error}
          </p>
        )}
      </div>
      <dialog
        ref={dialog}
        aria-labelledby="refund-title"
        className="m-auto w-[min(32rem,calc(100%-2rem))] rounded-xl p-0 shadow-xl backdrop:bg-slate-900/50"
      >
        <form action={action} className="space-y-4 p-5">
          <input type="hidden" name="uuid" value={uuid} />
          <h2 id="refund-title" className="text-lg font-semibold">
            Refund order #{orderNumber}?
          </h2>
          <p className="text-sm text-slate-700">
            The customer gets {total} back and the tickets return to sale. This cannot be undone.
          </p>
          <div>
            <label htmlFor="refund-reason" className="block text-sm font-medium text-slate-800">
              Reason (optional)
            </label>
            <textarea
              id="refund-reason"
              name="reason"
              rows={3}
              maxLength={500}
              // React resets the form after its action; the reason typed comes back with an error.
              defaultValue={state.reason}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? "refund-reason-error" : undefined}
              className={inputClasses(Boolean(reasonError))}
            />
            <FieldError id="refund-reason-error" message={reasonError} />
          </div>
          <div className="flex justify-end gap-2">
            <button type="button" className={buttonClasses.secondary} onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <SubmitButton variant="danger" pendingLabel="Refunding…">
              Confirm refund
            </SubmitButton>
          </div>
        </form>
      </dialog>
    </div>
  );
}
