"use client";

import { ActionError, ConfirmButton } from "../_components/confirm-button";
import { redeliverAction } from "./actions";
import { useFormAction } from "../_components/notices";

/** Resending goes to the receiver again, so it is confirmed first; the browser then shows the new delivery. */
export function RedeliverButton({ deliveryId }: { deliveryId: string }) {
  const [state, action, pending] = useFormAction(redeliverAction, {});
  return (
    <div>
      <ConfirmButton
        label="Redeliver"
        target={deliveryId}
        title="Send this delivery again?"
        confirmLabel="Redeliver"
        pendingLabel="Redelivering…"
        pending={pending}
        cancelLabel="Cancel"
        action={action}
        fields={{ id: deliveryId }}
      >
        A new delivery with the same payload goes to the integration now. It has its own X-Webhook-Delivery-ID and
        carries X-Webhook-Redelivery-Of with this delivery&apos;s id.
      </ConfirmButton>
      <ActionError message={state.error} />
    </div>
  );
}
