import type { Metadata } from "next";
import { can } from "@/lib/auth/permissions";
import { listLinks, listQueryOf, type SearchParams } from "@/lib/dashboard/paging";
import { requireSession } from "@/lib/dashboard/session";
import { listVenuePage, VENUE_LIST } from "@/lib/dashboard/venues";
import { FormSection, PagedListSection } from "../_components/sections";
import { VenueForm } from "./venue-form";
import { VenuesTable } from "./venues-table";

export const metadata: Metadata = { title: "Venues · Ticketing analytics" };

export default async function VenuesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requireSession("read");
  const query = listQueryOf(await searchParams, VENUE_LIST);
  const { rows, total } = await listVenuePage(session.organizationId, query);
  const { sorting, ...paging } = listLinks(VENUE_LIST, query, total);
  const editable = can(session.role, "catalog");
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Venues</h1>
        <p className="text-sm text-slate-600">Where your events take place.</p>
      </div>
      <PagedListSection
        id="venues-heading"
        title="Venues"
        total={total}
        countTestId="venues-count"
        emptyText={editable ? "No venues yet. Create one below, then add events at it." : "No venues yet."}
        pastEndText="This page is past the last venue."
        rowCount={rows.length}
        paging={{ ...paging, page: query.page }}
      >
        <VenuesTable venues={rows} sortLinks={sorting} readOnly={!editable} />
      </PagedListSection>
      {editable && (
        <FormSection id="create-heading" title="Create a venue">
          <VenueForm />
        </FormSection>
      )}
    </div>
  );
}
