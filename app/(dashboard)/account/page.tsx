import type { Metadata } from "next";
import { requireSession } from "@/lib/dashboard/session";
import { FormSection } from "../_components/sections";
import { LeaveForm, PasswordForm } from "./account-forms";

export const metadata: Metadata = { title: "Account · Ticketing analytics" };

export default async function AccountPage() {
  const session = await requireSession("account");
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Account</h1>
        <p className="text-sm text-slate-600">
          Signed in as <span className="break-all">{session.email}</span>, role <strong data-testid="own-role">{session.role}</strong>.
        </p>
      </div>
      <FormSection id="password-heading" title="Change your password">
        <PasswordForm />
      </FormSection>
      <FormSection id="leave-heading" title="Leave the organization">
        <LeaveForm />
      </FormSection>
    </div>
  );
}
