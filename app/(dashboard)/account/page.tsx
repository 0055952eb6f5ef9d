import type { Metadata } from "next";
import { PASSWORD_CHANGED } from "@/lib/dashboard/members";
import type { SearchParams } from "@/lib/dashboard/paging";
import { requireSession } from "@/lib/dashboard/session";
import { FormSection } from "../_components/sections";
import { LeaveForm, PasswordForm } from "./account-forms";

export const metadata: Metadata = { title: "Account · Ticketing analytics" };

export default async function AccountPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requireSession("account");
  // Set by the password change, which ends this browser's session too and signs it in anew.
  const passwordChanged = (await searchParams).password === "changed";
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Account</h1>
        <p className="text-sm text-slate-600">
          Signed in as <span className="break-all">{session.email}</span>, role <strong data-testid="own-role">{session.role}</strong>.
        </p>
      </div>
      <FormSection id="password-heading" title="Change your password">
        {passwordChanged && (
          <p role="status" className="mb-4 text-sm text-emerald-800">
            {PASSWORD_CHANGED}
          </p>
        )}
        <PasswordForm />
      </FormSection>
      <FormSection id="leave-heading" title="Leave the organization">
        <LeaveForm />
      </FormSection>
    </div>
  );
}
