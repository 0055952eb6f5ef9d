"use client";

import { useActionState, useRef } from "react";
import type { FormState } from "@/lib/dashboard/forms";
import { buttonClasses, SubmitButton } from "../_components/form-controls";
import { deleteEventAction, setEventStatusAction } from "./actions";

export interface EventActionTarget {
  id: string;
  name: string;
  status: "draft" | "published" | "cancelled";
}

/** Publish, cancel and delete for one event; the two irreversible ones ask first in a modal dialog. */
export function EventActions({ event }: { event: EventActionTarget }) {
  const [statusState, statusAction] = useActionState<FormState, FormData>(setEventStatusAction, {});
  const error = statusState.error;
  return (
    <div className="flex flex-wrap items-start gap-2">
      {event.status === "draft" && (
        <form action={statusAction}>
          <input type="hidden" name="id" value={event.id} />
          <input type="hidden" name="status" value="published" />
          <SubmitButton variant="secondary" pendingLabel="Publishing…">
            Publish<span className="sr-only"> {event.name}</span>
          </SubmitButton>
        </form>
      )}
      {event.status !== "cancelled" && (
        <ConfirmButton
          event={event}
          label="Cancel event"
          title={`Cancel “${event.name}”?`}
          confirmLabel="Cancel event"
          pendingLabel="Cancelling…"
          action={statusAction}
          extra={<input type="hidden" name="status" value="cancelled" />}
        >
          Its tickets are cancelled and every paid order is refunded. This cannot be undone.
        </ConfirmButton>
      )}
      <DeleteButton event={event} />
      {error && <p className="w-full text-sm text-red-700">{error}</p>}
    </div>
  );
}

function DeleteButton({ event }: { event: EventActionTarget }) {
  const [state, action] = useActionState<FormState, FormData>(deleteEventAction, {});
  return (
    <>
      <ConfirmButton
        event={event}
        label="Delete"
        title={`Delete “${event.name}”?`}
        confirmLabel="Delete event"
        pendingLabel="Deleting…"
        action={action}
      >
        The event is removed, its tickets are cancelled and all paid orders are refunded. This is irreversible.
      </ConfirmButton>
      {state.error && <p className="w-full text-sm text-red-700">{state.error}</p>}
    </>
  );
}

function ConfirmButton({
  event,
  label,
  title,
  confirmLabel,
  pendingLabel,
  action,
  extra,
  children,
}: {
  event: EventActionTarget;
  label: string;
  title: string;
  confirmLabel: string;
  pendingLabel: string;
  action: (formData: FormData) => void;
  extra?: React.ReactNode;
  children: React.ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = `${confirmLabel.replace(/\W/g, "-")}-${event.id}`;
  return (
    <>
      <button type="button" className={buttonClasses.secondary} onClick={() => dialog.current?.showModal()}>
        {label}
        <span className="sr-only"> {event.name}</span>
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-xl p-0 text-left shadow-xl backdrop:bg-slate-900/50"
      >
        <form action={action} onSubmit={() => dialog.current?.close()} className="space-y-4 p-5">
          <input type="hidden" name="id" value={event.id} />
          {extra}
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          <p className="text-sm text-slate-700">{children}</p>
          <div className="flex justify-end gap-2">
            <button type="button" className={buttonClasses.secondary} onClick={() => dialog.current?.close()}>
              Keep event
            </button>
            <SubmitButton variant="danger" pendingLabel={pendingLabel}>
              {confirmLabel}
            </SubmitButton>
          </div>
        </form>
      </dialog>
    </>
  );
}
