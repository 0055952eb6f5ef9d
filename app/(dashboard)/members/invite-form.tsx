"use client";

import { useId } from "react";
import { CopyButton } from "../_components/copy-button";
import { SubmitButton, TextField } from "../_components/form-controls";
import { useFormAction } from "../_components/notices";
import { inviteMemberAction, type InviteState } from "./actions";
import { RoleSelect } from "./role-select";

export function InviteForm({ ownerChoice }: { ownerChoice: boolean }) {
  const [state, action] = useFormAction<InviteState>(inviteMemberAction, {});
  const errors = state.fieldErrors ?? {};
  const roleId = useId();
  // Only rendered after the action answered, in the browser: the page's own origin makes the link.
  const link = state.invited && `${window.location.origin}${state.invited.path}`;
  return (
    <div className="space-y-4">
      {state.invited && link && (
        <div role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 p-4" data-testid="invitation">
          <p className="font-medium text-emerald-900">
            Invitation for {state.invited.email} created. Copy the link now and send it: it is shown only once and
            works once, until {state.invited.expiresAt.slice(0, 10)}.
          </p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className="rounded bg-white px-2 py-1 font-mono text-sm break-all text-slate-900" data-testid="invitation-link">
              {link}
            </code>
            <CopyButton text={link} label="Copy link" />
          </div>
        </div>
      )}
      {state.error && (
        <p role="alert" className="text-sm text-red-700">
          {state.error}
        </p>
      )}
      <form action={action} noValidate className="grid gap-4 sm:grid-cols-[1fr_12rem_auto] sm:items-end" key={state.invited?.path ?? "form"}>
        <TextField label="E-mail" name="email" type="email" autoComplete="off" maxLength={320} defaultValue={state.values?.email} error={errors.email} required />
        <div>
          <label htmlFor={roleId} className="block text-sm font-medium text-slate-800">
            Role
          </label>
          <RoleSelect id={roleId} defaultValue="viewer" ownerChoice={ownerChoice} />
        </div>
        <SubmitButton pendingLabel="Inviting…">Invite</SubmitButton>
      </form>
    </div>
  );
}
