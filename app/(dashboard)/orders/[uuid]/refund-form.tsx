"use client";

import { useActionState, useRef } from "react";
import type { FormState } from "@/lib/dashboard/forms";
import { buttonClasses } from "../../_components/button-classes";
import { SubmitButton } from "../../_components/form-controls";
import { refundOrderAction } from "../actions";

/** Refunding is irreversible, so the reason is entered in a modal dialog that asks for confirmation. */
export function RefundForm({ uuid, orderNumber, total }: { uuid: string; orderNumber: number; total: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, action] = useActionState<FormState, FormData>(refundOrderAction, {});
  const errors = state.fieldErrors ?? {};
  return (
    <div className="space-y-2">
      <button type="button" className={buttonClasses.danger} onClick={() => dialog.current?.showModal()}>
        Refund order
      </button>
      <div role="status">
        {(state.error ?? errors.reason) && (
          <p className="text-sm text-red-700" data-testid="refund-error">
            {errors.reason ? `Reason: ${errors.reason}` : state.error}
          </p>
        )}
      </div>
      <dialog
        ref={dialog}
        aria-labelledby="refund-title"
        className="m-auto w-[min(32rem,calc(100%-2rem))] rounded-xl p-0 shadow-xl backdrop:bg-slate-900/50"
      >
        <form action={action} onSubmit={() => dialog.current?.close()} className="space-y-4 p-5">
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
              className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
            />
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
