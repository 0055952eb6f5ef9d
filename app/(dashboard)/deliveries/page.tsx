import type { Metadata } from "next";
import Link from "next/link";
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from "@/db/schema";
import {
  DELIVERY_LIST,
  deliveriesQueryOf,
  deliveryFilterParams,
  isFiltered,
  isFinished,
  listDeliveryPage,
  utcMinuteText,
} from "@/lib/dashboard/deliveries";
import { carriedParams, listHref, listLinks, type SearchParams } from "@/lib/dashboard/paging";
import { requireSession } from "@/lib/dashboard/session";
import { ApiTokenButton } from "../_components/api-token-button";
import { CheckboxFilter, FilterForm, InputFilter, SelectFilter } from "../_components/filter-form";
import { PageNav } from "../_components/page-nav";
import { AutoRefresh } from "./auto-refresh";
import { DeliveriesTable } from "./deliveries-table";
import { DELIVERY_STATUS_LABELS } from "./status-badge";
import { Card } from "../_components/card";

export const metadata: Metadata = { title: "Deliveries · Ticketing analytics" };

export default async function DeliveriesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requireSession("deliveries");
  const query = deliveriesQueryOf(await searchParams);
  // Every integration comes along, for the filter's choices.
  const { rows, total, integrations } = await listDeliveryPage(session.organizationId, query);
  const { pages, previous, next, sorting } = listLinks(DELIVERY_LIST, query, total, deliveryFilterParams(query));
  const filtered = isFiltered(query);

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Deliveries</h1>
          <p className="text-sm text-slate-600">Every webhook sent to your integrations, with each attempt.</p>
        </div>
        <AutoRefresh active={rows.some((row) => !isFinished(row.status))} />
      </div>

      <FilterForm
        action="/deliveries"
        carried={carriedParams(DELIVERY_LIST, query)}
        clearHref={listHref(DELIVERY_LIST, { ...query, page: 1 })}
        filtered={filtered}
      >
        <CheckboxFilter
          legend="Status"
          name="status"
          values={query.statuses}
          options={DELIVERY_STATUSES.map((status) => ({ value: status, label: DELIVERY_STATUS_LABELS[status] }))}
        />
        <SelectFilter
          id="integration-filter"
          label="Integration"
          name="integration_id"
          value={query.integrationId}
          anyLabel="Any integration"
          options={integrations.map((integration) => ({ value: integration.id, label: integration.url }))}
          className="w-full min-w-0 sm:w-80"
        />
        <SelectFilter
          id="event-filter"
          label="Event"
          name="event_type"
          value={query.eventType}
          anyLabel="Any event"
          options={WEBHOOK_EVENT_TYPES.map((type) => ({ value: type, label: type }))}
        />
        <InputFilter id="order-filter" label="Order" name="order_id" value={query.orderRef} placeholder="Number or ord_…" />
        <InputFilter id="from-filter" label="Created from (UTC)" name="created_from" type="datetime-local" value={utcMinuteText(query.createdFrom)} />
        <InputFilter id="to-filter" label="Created before (UTC)" name="created_to" type="datetime-local" value={utcMinuteText(query.createdTo)} />
      </FilterForm>

      <Card labelledBy="deliveries-heading">
        <h2 id="deliveries-heading" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">
          {filtered ? "Matching deliveries" : "All deliveries"}{" "}
          <span className="font-normal text-slate-600">({total.toLocaleString("en-GB")})</span>
        </h2>
        {rows.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-600">
            {total > 0 ? (
              "This page is past the last delivery."
            ) : filtered ? (
              "No delivery matches these filters."
            ) : integrations.length === 0 ? (
              <>
                No deliveries yet. <Link href="/integrations" className="text-blue-800 underline">Add a webhook</Link>{" "}
                and every completed order is sent to it.
              </>
            ) : (
              "No deliveries yet. One appears here for every completed order, or send a test delivery from Integrations."
            )}
          </p>
        ) : (
          <DeliveriesTable deliveries={rows} sortLinks={sorting} />
        )}
        <PageNav previous={previous} next={next}>
          Page {query.page} of {pages}
        </PageNav>
      </Card>

      <Card labelledBy="token-heading" padded>
        <h2 id="token-heading" className="text-base font-semibold">
          Inspect deliveries through the API
        </h2>
        <p className="mt-1 mb-3 text-sm text-slate-600">
          <code className="font-mono">GET /webhooks/deliveries</code> and its siblings take a dashboard user token, not an
          API key. The token acts as you and expires after one hour.
        </p>
        <ApiTokenButton />
      </Card>
    </div>
  );
}
