"use client";

import { SubmitButton } from "../_components/form-controls";
import { redeliverAction } from "./actions";
import { useFormAction } from "../_components/notices";

export function RedeliverButton({ deliveryId }: { deliveryId: string }) {
  const [state, action] = useFormAction(redeliverAction, {});
  return (
    <form action={action}>
      <input type="hidden" name="id" value={deliveryId} />
      <SubmitButton pendingLabel="Redelivering…">Redeliver</SubmitButton>
      {state.error && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {state.error}
        </p>
      )}
    </form>
  );
}
