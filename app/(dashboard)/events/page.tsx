import type { Metadata } from "next";
import { listEvents } from "@/lib/catalog/events";
import { listVenues } from "@/lib/catalog/venues";
import { ticketTotals } from "@/lib/dashboard/events";
import { hrefWith, pageLinks, pageParams, pageQueryOf } from "@/lib/dashboard/paging";
import { requireSession } from "@/lib/dashboard/session";
import { PageNav } from "../_components/page-nav";
import { EventForm } from "./event-form";
import { EventsTable, type EventRow } from "./events-table";

export const metadata: Metadata = { title: "Events · Ticketing analytics" };

export default async function EventsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requireSession();
  const query = pageQueryOf(await searchParams);
  const [{ data: events, meta }, { data: venues }] = await Promise.all([
    listEvents(session.organizationId, { page: query.page, per_page: query.perPage }),
    listVenues(session.organizationId),
  ]);
  const tickets = await ticketTotals(
    session.organizationId,
    events.map((event) => event.id),
  );
  const rows: EventRow[] = events.map((event) => ({
    id: event.id,
    name: event.name,
    venue: event.venue.name,
    status: event.status,
    startsAt: event.starts_at,
    sold: tickets.get(event.id)?.sold ?? 0,
    total: tickets.get(event.id)?.total ?? 0,
  }));
  const { pages, previous, next } = pageLinks(query, meta.total, (page) => hrefWith("/events", pageParams({ ...query, page })));

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Events</h1>
        <p className="text-sm text-slate-600">
          Events start as drafts; publish one to put its tickets on sale. Open an event to edit it or add ticket types.
        </p>
      </div>

      <section aria-labelledby="events-heading" className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 px-4 py-3">
          <h2 id="events-heading" className="text-base font-semibold">
            Events
          </h2>
          <p className="text-sm text-slate-600">{meta.total.toLocaleString("en-GB")} in total</p>
        </div>
        {rows.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-600">
            {meta.total > 0 ? "This page is past the last event." : "No events yet. Create the first one below."}
          </p>
        ) : (
          <EventsTable events={rows} />
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
