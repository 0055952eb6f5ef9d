import type { Metadata } from "next";
import { listLinks, listQueryOf, type SearchParams } from "@/lib/dashboard/paging";
import { requireSession } from "@/lib/dashboard/session";
import { listVenuePage, VENUE_LIST } from "@/lib/dashboard/venues";
import { PageNav } from "../_components/page-nav";
import { VenueForm } from "./venue-form";
import { VenuesTable } from "./venues-table";

export const metadata: Metadata = { title: "Venues · Ticketing analytics" };

export default async function VenuesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requireSession();
  const query = listQueryOf(await searchParams, VENUE_LIST);
  const { rows, total } = await listVenuePage(session.organizationId, query);
  const { pages, previous, next, sorting } = listLinks(VENUE_LIST, query, total);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Venues</h1>
        <p className="text-sm text-slate-600">Where your events take place.</p>
      </div>
      <section aria-labelledby="venues-heading" className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 px-4 py-3">
          <h2 id="venues-heading" className="text-base font-semibold">
            Venues
          </h2>
          <p className="text-sm text-slate-600" data-testid="venues-count">
            {total.toLocaleString("en-GB")} in total
          </p>
        </div>
        {rows.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-600">
            {total > 0 ? "This page is past the last venue." : "No venues yet. Create one below, then add events at it."}
          </p>
        ) : (
          <VenuesTable venues={rows} sortLinks={sorting} />
        )}
        <PageNav previous={previous} next={next}>
          Page {query.page} of {pages}
        </PageNav>
      </section>
      <section aria-labelledby="create-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="create-heading" className="mb-4 text-base font-semibold">
          Create a venue
        </h2>
        <VenueForm />
      </section>
    </div>
  );
}
