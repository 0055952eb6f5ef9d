"use client";

import { useActionState } from "react";
import { SubmitButton, TextField } from "@/app/(dashboard)/_components/form-controls";
import type { FormState } from "@/lib/dashboard/forms";
import { acceptInvitationAction } from "./actions";

export function AcceptForm({ token, email }: { token: string; email: string }) {
  const [state, action] = useActionState<FormState, FormData>(acceptInvitationAction, {});
  return (
    <form action={action} className="space-y-4" noValidate>
      <input type="hidden" name="token" value={token} />
      {/* For password managers: the account the new password belongs to. */}
      <input type="hidden" name="username" value={email} autoComplete="username" disabled />
      {state.error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.error}
        </p>
      )}
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={8}
        hint="At least 8 characters."
        error={state.fieldErrors?.password}
        required
      />
      <SubmitButton className="w-full" pendingLabel="Joining…">
        Join and sign in
      </SubmitButton>
    </form>
  );
}
