import type { Metadata } from "next";
import { EVENT_STATUSES } from "@/db/schema";
import { listVenues } from "@/lib/catalog/venues";
import { EVENT_LIST, eventsQueryOf, listEventPage } from "@/lib/dashboard/events";
import { carriedParams, listHref, listLinks, type SearchParams } from "@/lib/dashboard/paging";
import { requireSession } from "@/lib/dashboard/session";
import { FilterForm, SelectFilter } from "../_components/filter-form";
import { PageNav } from "../_components/page-nav";
import { EventForm } from "./event-form";
import { EventsTable } from "./events-table";

export const metadata: Metadata = { title: "Events · Ticketing analytics" };

export default async function EventsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requireSession();
  const query = eventsQueryOf(await searchParams);
  const [{ rows, total }, { data: venues }] = await Promise.all([
    listEventPage(session.organizationId, query),
    listVenues(session.organizationId),
  ]);
  const filters = { status: query.status };
  const { pages, previous, next, sorting } = listLinks(EVENT_LIST, query, total, filters);

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Events</h1>
        <p className="text-sm text-slate-600">
          Events start as drafts; publish one to put its tickets on sale. Open an event to edit it or add ticket types.
        </p>
      </div>

      <FilterForm
        action="/events"
        carried={carriedParams(EVENT_LIST, query)}
        clearHref={listHref(EVENT_LIST, { ...query, page: 1 })}
        filtered={Boolean(query.status)}
      >
        <SelectFilter
          id="event-status-filter"
          label="Status"
          name="status"
          value={query.status}
          anyLabel="Any status"
          options={EVENT_STATUSES.map((status) => ({ value: status, label: status[0]!.toUpperCase() + status.slice(1) }))}
        />
      </FilterForm>

      <section aria-labelledby="events-heading" className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 px-4 py-3">
          <h2 id="events-heading" className="text-base font-semibold">
            {query.status ? "Matching events" : "Events"}
          </h2>
          <p className="text-sm text-slate-600" data-testid="events-count">
            {total.toLocaleString("en-GB")} in total
          </p>
        </div>
        {rows.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-600">
            {total > 0
              ? "This page is past the last event."
              : query.status
                ? `No ${query.status} events.`
                : "No events yet. Create the first one below."}
          </p>
        ) : (
          <EventsTable events={rows} sortLinks={sorting} />
        )}
        <PageNav previous={previous} next={next}>
          Page {query.page} of {pages}
        </PageNav>
      </section>

      <section aria-labelledby="create-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="create-heading" className="mb-4 text-base font-semibold">
          Create an event
        </h2>
        <EventForm venues={venues.map((venue) => ({ id: venue.id, name: venue.name }))} />
      </section>
    </div>
  );
}
