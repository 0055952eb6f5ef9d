import type { Metadata } from "next";
import Link from "next/link";
import { cardClasses } from "@/app/(dashboard)/_components/card";
import { findOpenInvitation } from "@/lib/auth/members";
import { AcceptForm } from "./accept-form";

export const metadata: Metadata = { title: "Join an organization · Ticketing analytics" };

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = token.length <= 200 ? await findOpenInvitation(token) : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className={`w-full max-w-sm p-6 sm:p-8 ${cardClasses}`}>
        {invitation ? (
          <>
            <h1 className="text-xl font-semibold">Join {invitation.organizationName}</h1>
            <p className="mt-1 mb-6 text-sm text-slate-600">
              As <span className="break-all">{invitation.email}</span>, role <strong>{invitation.role}</strong>. Choose a
              password to sign in with.
            </p>
            <AcceptForm token={token} email={invitation.email} />
          </>
        ) : (
          <>
            <h1 className="text-xl font-semibold">This invitation cannot be used</h1>
            <p className="mt-2 text-sm text-slate-700">
              It is unknown, already used, or older than 7 days. Ask a member of the organization for a new one.
            </p>
            <Link href="/login" className="mt-4 inline-block text-sm font-medium text-blue-700 underline">
              Sign in
            </Link>
          </>
        )}
      </div>
    </main>
  );
}
