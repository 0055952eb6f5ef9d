"use client";

import { ConfirmAction } from "../_components/confirm-button";
import { redeliverAction } from "./actions";

/** Resending goes to the receiver again, so it is confirmed first; the browser then shows the new delivery. */
export function RedeliverButton({ deliveryId }: { deliveryId: string }) {
  return (
    <div>
      <ConfirmAction
        label="Redeliver"
        target={deliveryId}
        title="Send this delivery again?"
        confirmLabel="Redeliver"
        pendingLabel="Redelivering…"
        cancelLabel="Cancel"
        serverAction={redeliverAction}
        fields={{ id: deliveryId }}
      >
        A new delivery with the same payload goes to the integration now. It has its own X-Webhook-Delivery-ID and
        carries X-Webhook-Redelivery-Of with this delivery&apos;s id.
      </ConfirmAction>
    </div>
  );
}
