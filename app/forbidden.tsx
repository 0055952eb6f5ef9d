import Link from "next/link";

/** A signed-in user whose role lacks a page's permission (lib/dashboard/session.ts's forbidden()): status 403. */
export default function Forbidden() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="max-w-md text-center">
        <h1 className="text-xl font-semibold">Your role does not allow this page</h1>
        <p className="mt-2 text-sm text-slate-700">Ask an owner or admin of your organization if you need access.</p>
        <Link href="/overview" className="mt-4 inline-block text-sm font-medium text-blue-700 underline">
          Back to the overview
        </Link>
      </div>
    </main>
  );
}
