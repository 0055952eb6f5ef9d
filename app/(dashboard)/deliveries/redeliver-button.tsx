"use client";

import { useActionState } from "react";
import { SubmitButton } from "../_components/form-controls";
import { redeliverAction } from "./actions";

export function RedeliverButton({ deliveryId }: { deliveryId: string }) {
  const [state, action] = useActionState(redeliverAction, {});
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
