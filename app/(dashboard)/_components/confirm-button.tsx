"use client";

import { useId, useRef, useState, type ReactNode } from "react";
import type { FormState } from "@/lib/dashboard/forms";
import { buttonClasses } from "./button-classes";
import { SubmitButton } from "./form-controls";
import { useFormAction } from "./notices";

interface ConfirmButtonProps {
  /** The button's visible text; `target` follows it for screen readers, so each row's button has its own name. */
  label: string;
  target: string;
  title: string;
  confirmLabel: string;
  pendingLabel: string;
  /** The action is running (the dialog has closed by then): the button says so. */
  pending?: boolean;
  cancelLabel?: string;
  action: (formData: FormData) => void;
  /** Hidden inputs of the confirming form. */
  fields: Record<string, string>;
  /**
   * A second, explicit confirmation: a checkbox with this text (sent as `acknowledge_ended=yes`) that must
   * be ticked before the confirm button works.
   */
  acknowledge?: string;
  children: ReactNode;
}

/**
 * A button for an irreversible action that asks first in a modal dialog: `showModal` keeps focus inside
 * the dialog, Escape cancels, and closing returns focus to the button. The dialog is named by its title.
 */
export function ConfirmButton({
  label,
  target,
  title,
  confirmLabel,
  pendingLabel,
  pending = false,
  cancelLabel = "Cancel",
  action,
  fields,
  acknowledge,
  children,
}: ConfirmButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [acknowledged, setAcknowledged] = useState(false);
  const close = () => {
    dialog.current?.close();
    setAcknowledged(false);
  };
  return (
    <>
      <button
        type="button"
        className={buttonClasses.secondary}
        disabled={pending}
        aria-disabled={pending}
        onClick={() => dialog.current?.showModal()}
      >
        {pending ? pendingLabel : label}
        <span className="sr-only"> {target}</span>
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-xl p-0 text-left shadow-xl backdrop:bg-slate-900/50"
      >
        <form action={action} onSubmit={close} className="space-y-4 p-5">
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <h2 id={titleId} className="text-lg font-semibold whitespace-normal">
            {title}
          </h2>
          <div className="text-sm whitespace-normal text-slate-700">{children}</div>
          {acknowledge && (
            <label className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm whitespace-normal text-amber-950">
              <input
                type="checkbox"
                name="acknowledge_ended"
                value="yes"
                required
                checked={acknowledged}
                onChange={(event) => setAcknowledged(event.target.checked)}
                className="mt-0.5 size-4"
              />
              {acknowledge}
            </label>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className={buttonClasses.secondary} onClick={close}>
              {cancelLabel}
            </button>
            <SubmitButton variant="danger" pendingLabel={pendingLabel} disabled={Boolean(acknowledge) && !acknowledged}>
              {confirmLabel}
            </SubmitButton>
          </div>
        </form>
      </dialog>
    </>
  );
}

/** A ConfirmButton that runs its server action itself, with the action's refusal after the button. */
export function ConfirmAction({
  serverAction,
  ...button
}: Omit<ConfirmButtonProps, "action" | "pending"> & { serverAction: (previous: FormState, formData: FormData) => Promise<FormState> }) {
  const [state, action, pending] = useFormAction<FormState>(serverAction, {});
  return (
    <>
      <ConfirmButton {...button} action={action} pending={pending} />
      <ActionError message={state.error} />
    </>
  );
}

/** The wording of the confirmed deletion of one record of a kind ("venue", "ticket type"). */
export function deleteWording(kind: string, name: string) {
  return {
    label: "Delete",
    target: name,
    title: `Delete “${name}”?`,
    confirmLabel: `Delete ${kind}`,
    pendingLabel: "Deleting…",
    cancelLabel: `Keep ${kind}`,
  };
}

/** A refused action's reason, next to its button; announced as it appears. */
export function ActionError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="w-full text-sm whitespace-normal text-red-700">
      {message}
    </p>
  );
}
