import type { Metadata } from "next";
import { EVENT_STATUSES } from "@/db/schema";
import { can } from "@/lib/auth/permissions";
import { listVenues } from "@/lib/catalog/venues";
import { EVENT_LIST, eventsQueryOf, listEventPage } from "@/lib/dashboard/events";
import { carriedParams, listHref, listLinks, type SearchParams } from "@/lib/dashboard/paging";
import { requireSession } from "@/lib/dashboard/session";
import { FilterForm, SelectFilter } from "../_components/filter-form";
import { FormSection, PagedListSection } from "../_components/sections";
import { EventForm } from "./event-form";
import { EventsTable } from "./events-table";

export const metadata: Metadata = { title: "Events · Ticketing analytics" };

export default async function EventsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requireSession("read");
  const query = eventsQueryOf(await searchParams);
  const [{ rows, total }, { data: venues }] = await Promise.all([
    listEventPage(session.organizationId, query),
    listVenues(session.organizationId),
  ]);
  const editable = can(session.role, "catalog");
  const filters = { status: query.status };
  const { sorting, ...paging } = listLinks(EVENT_LIST, query, total, filters);

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Events</h1>
        <p className="text-sm text-slate-600">
          {editable
            ? "Events start as drafts; publish one to put its tickets on sale. Open an event to edit it or add ticket types."
            : "Your organization's events; open one to see its ticket types and sales."}
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

      <PagedListSection
        id="events-heading"
        title={query.status ? "Matching events" : "Events"}
        total={total}
        countTestId="events-count"
        emptyText={query.status ? `No ${query.status} events.` : editable ? "No events yet. Create the first one below." : "No events yet."}
        pastEndText="This page is past the last event."
        rowCount={rows.length}
        paging={{ ...paging, page: query.page }}
      >
        <EventsTable events={rows} sortLinks={sorting} readOnly={!editable} />
      </PagedListSection>

      {editable && (
        <FormSection id="create-heading" title="Create an event">
          <EventForm venues={venues.map((venue) => ({ id: venue.id, name: venue.name }))} />
        </FormSection>
      )}
    </div>
  );
}
