"use client";

import type { FormState } from "@/lib/dashboard/forms";
import { ActionError, ConfirmAction, ConfirmButton, deleteWording } from "../_components/confirm-button";
import { SubmitButton } from "../_components/form-controls";
import { useFormAction } from "../_components/notices";
import { deleteEventAction, setEventStatusAction } from "./actions";

export interface EventActionTarget {
  id: string;
  name: string;
  status: "draft" | "published" | "cancelled";
  /** Its end has passed: cancelling or deleting then needs a second, explicit confirmation. */
  ended: boolean;
}

const ENDED_ACKNOWLEDGEMENT = "This event has already ended. I still want to do this, and refund its paid orders.";

/** Publish, cancel and delete for one event; the two irreversible ones ask first in a modal dialog. */
export function EventActions({ event }: { event: EventActionTarget }) {
  const [statusState, statusAction, statusPending] = useFormAction<FormState>(setEventStatusAction, {});
  const acknowledge = event.ended ? ENDED_ACKNOWLEDGEMENT : undefined;
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
          label="Cancel event"
          target={event.name}
          title={`Cancel “${event.name}”?`}
          confirmLabel="Cancel event"
          pendingLabel="Cancelling…"
          pending={statusPending}
          cancelLabel="Keep event"
          action={statusAction}
          fields={{ id: event.id, status: "cancelled" }}
          acknowledge={acknowledge}
        >
          Its tickets are cancelled and every paid order is refunded. This cannot be undone.
        </ConfirmButton>
      )}
      <ConfirmAction {...deleteWording("event", event.name)} serverAction={deleteEventAction} fields={{ id: event.id }} acknowledge={acknowledge}>
        The event is removed, its tickets are cancelled and all paid orders are refunded. This is irreversible.
      </ConfirmAction>
      <ActionError message={statusState.error} />
    </div>
  );
}
