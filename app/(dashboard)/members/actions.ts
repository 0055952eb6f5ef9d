"use server";

import { inviteMember, removeMember, setMemberRole } from "@/lib/auth/members";
import { formAction } from "@/lib/dashboard/form-action";
import type { FormState } from "@/lib/dashboard/forms";
import { inviteFormSchema, removeMemberFormSchema, setRoleFormSchema } from "@/lib/dashboard/members";
import type { DashboardSession } from "@/lib/dashboard/session";

export interface InviteState extends FormState {
  values?: { email: string; role: string };
  /** The one-time link's path, present only in the response that created it (only its hash is stored). */
  invited?: { email: string; path: string; expiresAt: string };
}

const actor = (session: DashboardSession) => ({ userId: session.userId, role: session.role });

export const inviteMemberAction = formAction({
  permission: "members",
  schema: inviteFormSchema,
  unknown: "This form is out of date; reload the page",
  keep: (input): InviteState => ({ values: { email: String(input.email ?? ""), role: String(input.role ?? "") } }),
  run: async (session, data): Promise<InviteState> => {
    const { token, expiresAt } = await inviteMember({ organizationId: session.organizationId, ...data, actor: actor(session) });
    return { invited: { email: data.email, path: `/invite/${token}`, expiresAt: expiresAt.toISOString() } };
  },
  revalidate: () => ["/members"],
});

export const setRoleAction = formAction({
  permission: "members",
  schema: setRoleFormSchema,
  unknown: "Unknown member; reload the page",
  run: async (session, { id, role }): Promise<FormState> => {
    await setMemberRole(session.organizationId, id, role, actor(session));
    return { notice: `Role changed to ${role}.` };
  },
  revalidate: () => ["/members"],
});

export const removeMemberAction = formAction({
  permission: "members",
  schema: removeMemberFormSchema,
  unknown: "Unknown member; reload the page",
  run: async (session, { id }): Promise<FormState> => {
    await removeMember(session.organizationId, id, actor(session));
    return { notice: "Member removed." };
  },
  revalidate: () => ["/members"],
});
