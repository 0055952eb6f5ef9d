import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { cardClasses } from "@/app/(dashboard)/_components/card";
import { safeReturnPath } from "@/lib/dashboard/return-path";
import { currentSession } from "@/lib/dashboard/session";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in · Ticketing analytics" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeReturnPath((await searchParams).next);
  const session = await currentSession();
  if (session) redirect(next ?? "/overview");
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className={`w-full max-w-sm p-6 sm:p-8 ${cardClasses}`}>
        <h1 className="text-xl font-semibold">Sign in</h1>
        <p className="mt-1 mb-6 text-sm text-slate-600">Ticketing analytics dashboard</p>
        <LoginForm next={next} />
      </div>
    </main>
  );
}
