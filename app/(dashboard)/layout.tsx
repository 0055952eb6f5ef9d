import { headers } from "next/headers";
import { forbidden } from "next/navigation";
import { can } from "@/lib/auth/permissions";
import { getOrganization } from "@/lib/organizations/organizations";
import { REQUESTED_PATH_HEADER } from "@/lib/dashboard/return-path";
import { requireSession } from "@/lib/dashboard/session";
import { NavLinks } from "./_components/nav-links";
import { sectionOf } from "./_components/sections-list";
import { NoticeProvider } from "./_components/notices";
import { signOutAction } from "./actions";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const session = await requireSession("read");
  // The page checks its permission too, but inside its loading boundary, after the 200 has been sent: this
  // answers a section the role may not open with a real 403 first (a test keeps both permissions equal).
  const section = sectionOf(((await headers()).get(REQUESTED_PATH_HEADER) ?? "").split("?")[0]!);
  if (section && !can(session.role, section.permission)) forbidden();
  const organization = await getOrganization(session.organizationId);
  return (
    <div className="min-h-screen md:flex">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-10 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-slate-900"
      >
        Skip to content
      </a>
      {/* The dark column stretches with the page; its contents stay in view while a long page scrolls. */}
      <header className="bg-slate-900 text-white md:w-60 md:shrink-0" data-testid="sidebar">
        <div className="md:sticky md:top-0 md:flex md:h-screen md:flex-col">
          <div className="flex items-center justify-between gap-3 px-4 py-3 md:block md:px-5 md:py-5">
            <div className="min-w-0">
              <p className="text-xs tracking-wide text-slate-300 uppercase">Ticketing analytics</p>
              <p className="truncate font-semibold" data-testid="organization-name">
                {organization?.name ?? "Organization"}
              </p>
            </div>
            <form action={signOutAction} className="md:hidden">
              <SignOutButton />
            </form>
          </div>
          <nav aria-label="Main" className="px-2 pb-2 md:flex-1 md:px-3">
            <NavLinks role={session.role} />
          </nav>
          <div className="hidden border-t border-slate-700 px-5 py-4 md:block">
            {session.email && <p className="mb-2 truncate text-sm text-slate-300">{session.email}</p>}
            <form action={signOutAction}>
              <SignOutButton />
            </form>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-10 lg:py-8">
        <NoticeProvider>{children}</NoticeProvider>
      </main>
    </div>
  );
}

function SignOutButton() {
  return (
    <button
      type="submit"
      className="rounded-md border border-slate-500 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-blue-400"
    >
      Sign out
    </button>
  );
}
