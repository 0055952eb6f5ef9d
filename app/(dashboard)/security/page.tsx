import type { Metadata } from "next";
import { AUDIT_ACTION_NAMES } from "@/lib/audit/actions";
import { carriedParams, listHref, listLinks, type SearchParams } from "@/lib/dashboard/paging";
import { AUDIT_LIST, isFiltered, listSecurityPage, securityFilterParams, securityQueryOf } from "@/lib/dashboard/security";
import { requireSession } from "@/lib/dashboard/session";
import { Card } from "../_components/card";
import { FilterForm, InputFilter, SelectFilter } from "../_components/filter-form";
import { PageNav } from "../_components/page-nav";
import { AuditTable } from "./audit-table";

export const metadata: Metadata = { title: "Security · Ticketing analytics" };

export default async function SecurityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requireSession("audit");
  const query = securityQueryOf(await searchParams);
  const { data, total } = await listSecurityPage(session.organizationId, query);
  const { pages, previous, next } = listLinks(AUDIT_LIST, query, total, securityFilterParams(query));
  const filtered = isFiltered(query);

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Security</h1>
        <p className="text-sm text-slate-600">
          The audit log: who changed keys, integrations, secrets, members, events and orders, and who signed in, from where.
          Entries cannot be changed; they are kept for a year unless configured otherwise.
        </p>
      </div>

      <FilterForm action="/security" carried={carriedParams(AUDIT_LIST, query)} clearHref={listHref(AUDIT_LIST, { ...query, page: 1 })} filtered={filtered}>
        <InputFilter id="actor-filter" label="Actor" name="actor" value={query.actor} placeholder="E-mail, sk_… or id" />
        <SelectFilter
          id="action-filter"
          label="Action"
          name="action"
          value={query.action}
          anyLabel="Any action"
          options={AUDIT_ACTION_NAMES.map((action) => ({ value: action, label: action }))}
          className="w-full min-w-0 sm:w-72"
        />
        <InputFilter id="from-filter" label="From (UTC day)" name="from" type="date" value={securityFilterParams(query).from} />
        <InputFilter id="to-filter" label="To (UTC day, included)" name="to" type="date" value={securityFilterParams(query).to} />
      </FilterForm>

      <Card labelledBy="audit-heading">
        <h2 id="audit-heading" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">
          {filtered ? "Matching entries" : "All entries"} <span className="font-normal text-slate-600">({total.toLocaleString("en-GB")})</span>
        </h2>
        {data.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-600">
            {total > 0 ? "This page is past the last entry." : filtered ? "No entry matches these filters." : "No entries yet."}
          </p>
        ) : (
          <AuditTable entries={data} />
        )}
        <PageNav previous={previous} next={next}>
          Page {query.page} of {pages}
        </PageNav>
      </Card>
    </div>
  );
}
