import type { Metadata } from "next";
import { listInvitations, listMembers } from "@/lib/auth/members";
import { ROLE_DESCRIPTIONS } from "@/lib/dashboard/members";
import { requireSession } from "@/lib/dashboard/session";
import { Card } from "../_components/card";
import { FormSection } from "../_components/sections";
import { InviteForm } from "./invite-form";
import { MemberRow } from "./member-row";

export const metadata: Metadata = { title: "Members · Ticketing analytics" };

export default async function MembersPage() {
  const session = await requireSession("members");
  const [members, invitations] = await Promise.all([listMembers(session.organizationId), listInvitations(session.organizationId)]);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Members</h1>
        <p className="text-sm text-slate-600">Who can sign in to this organization&apos;s dashboard, and what each role may do.</p>
      </div>

      <Card labelledBy="members-heading" padded>
        <h2 id="members-heading" className="text-base font-semibold">
          Members <span data-testid="members-count">({members.length})</span>
        </h2>
        <ul className="mt-3 divide-y divide-slate-200" data-testid="members-list">
          {members.map((member) => (
            <MemberRow
              key={member.id}
              member={{ id: member.id, email: member.email, role: member.role }}
              isSelf={member.id === session.userId}
              // Admins manage everyone except owners; the server refuses the rest anyway.
              manageable={session.role === "owner" || member.role !== "owner"}
              ownerChoice={session.role === "owner"}
            />
          ))}
        </ul>
      </Card>

      {invitations.length > 0 && (
        <Card labelledBy="invitations-heading" padded>
          <h2 id="invitations-heading" className="text-base font-semibold">
            Open invitations
          </h2>
          <ul className="mt-3 divide-y divide-slate-200 text-sm">
            {invitations.map((invitation) => (
              <li key={invitation.id} className="flex flex-wrap justify-between gap-2 py-2">
                <span className="break-all">{invitation.email}</span>
                <span className="text-slate-600">
                  {invitation.role} · expires {invitation.expiresAt.toISOString().slice(0, 10)}
                </span>
              </li>
            ))}
          </ul>
        </Card>
      )}

      <FormSection id="invite-heading" title="Invite a member">
        <InviteForm ownerChoice={session.role === "owner"} />
      </FormSection>

      <Card labelledBy="roles-heading" padded>
        <h2 id="roles-heading" className="text-base font-semibold">
          Roles
        </h2>
        <dl className="mt-2 space-y-1 text-sm">
          {Object.entries(ROLE_DESCRIPTIONS).map(([role, text]) => (
            <div key={role} className="sm:flex sm:gap-2">
              <dt className="font-medium">{role}</dt>
              <dd className="text-slate-700">{text}</dd>
            </div>
          ))}
        </dl>
      </Card>
    </div>
  );
}
