"use client";

import { useId } from "react";
import type { Role } from "@/db/schema/roles";
import { ActionError, ConfirmButton } from "../_components/confirm-button";
import { SubmitButton } from "../_components/form-controls";
import { useFormAction } from "../_components/notices";
import { removeMemberAction, setRoleAction } from "./actions";
import { RoleSelect } from "./role-select";

export function MemberRow({
  member,
  isSelf,
  manageable,
  ownerChoice,
}: {
  member: { id: string; email: string; role: Role };
  isSelf: boolean;
  manageable: boolean;
  ownerChoice: boolean;
}) {
  const [roleState, roleAction] = useFormAction(setRoleAction, {});
  const [removeState, removeAction, removing] = useFormAction(removeMemberAction, {});
  const selectId = useId();
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="member">
      <div className="min-w-0">
        <p className="font-medium break-all">
          {member.email} {isSelf && <span className="text-sm font-normal text-slate-600">(you)</span>}
        </p>
        <p className="text-sm text-slate-600" data-testid="member-role">
          {member.role}
        </p>
      </div>
      {manageable && !isSelf && (
        <div className="flex flex-wrap items-end gap-2">
          {/* Keyed by the role: React resets a form after its action, to the role it was rendered with. */}
          <form action={roleAction} className="flex flex-wrap items-end gap-2" key={member.role}>
            <input type="hidden" name="id" value={member.id} />
            <div>
              <label htmlFor={selectId} className="block text-sm font-medium text-slate-800">
                Role<span className="sr-only"> of {member.email}</span>
              </label>
              <RoleSelect id={selectId} defaultValue={member.role} ownerChoice={ownerChoice} />
            </div>
            <SubmitButton variant="secondary" pendingLabel="Saving…">
              Change role<span className="sr-only"> of {member.email}</span>
            </SubmitButton>
          </form>
          <ConfirmButton
            label="Remove"
            target={member.email}
            title={`Remove ${member.email}?`}
            confirmLabel="Remove member"
            pendingLabel="Removing…"
            pending={removing}
            action={removeAction}
            fields={{ id: member.id }}
          >
            Their sessions and user tokens stop working at once. Invite them again to bring them back.
          </ConfirmButton>
        </div>
      )}
      <ActionError message={roleState.error ?? removeState.error} />
    </li>
  );
}
