"use client";

import type { FormState } from "@/lib/dashboard/forms";
import { ActionError, ConfirmButton } from "../_components/confirm-button";
import { SubmitButton, TextField } from "../_components/form-controls";
import { useFormAction } from "../_components/notices";
import { changePasswordAction, leaveOrganizationAction } from "./actions";

export function PasswordForm() {
  const [state, action] = useFormAction<FormState>(changePasswordAction, {});
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} noValidate className="space-y-4">
      <TextField label="Current password" name="current" type="password" autoComplete="current-password" error={errors.current} required />
      <TextField
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={8}
        hint="At least 8 characters. Your other sessions end."
        error={errors.password}
        required
      />
      <ActionError message={state.error} />
      <SubmitButton pendingLabel="Changing…">Change password</SubmitButton>
    </form>
  );
}

export function LeaveForm() {
  const [state, action, pending] = useFormAction<FormState>(leaveOrganizationAction, {});
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-600">You lose access at once. The last owner cannot leave.</p>
      <ConfirmButton
        label="Leave"
        target="the organization"
        title="Leave the organization?"
        confirmLabel="Leave"
        pendingLabel="Leaving…"
        pending={pending}
        action={action}
        fields={{}}
      >
        You will be signed out and can come back only with a new invitation.
      </ConfirmButton>
      <ActionError message={state.error} />
    </div>
  );
}
