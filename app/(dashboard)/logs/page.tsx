import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { STATUS_CLASSES } from "@/lib/request-log/schemas";
import { carriedParams, firstParam, listHref, listLinks, type SearchParams } from "@/lib/dashboard/paging";
import {
  REQUEST_LOG_LIST,
  listRequestLogPage,
  requestLogFilterParams,
  requestLogQueryOf,
  traceIdOf,
} from "@/lib/dashboard/request-log";
import { utcMinuteText } from "@/lib/dashboard/deliveries";
import { requireSession } from "@/lib/dashboard/session";
import { env } from "@/lib/env";
import { buttonClasses } from "../_components/button-classes";
import { Card } from "../_components/card";
import { FilterForm, InputFilter, SelectFilter } from "../_components/filter-form";
import { inputClasses } from "../_components/input-classes";
import { PageNav } from "../_components/page-nav";
import { LogsTable } from "./logs-table";

export const metadata: Metadata = { title: "Logs · Ticketing analytics" };

export default async function LogsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requireSession("logs");
  const params = await searchParams;
  const search = firstParam(params, "trace");
  // A pasted trace id goes straight to its request; the detail page answers 404 for one that is not ours.
  const traceId = traceIdOf(search);
  if (traceId) redirect(`/logs/${traceId}`);

  const query = requestLogQueryOf(params);
  const filters = requestLogFilterParams(query);
  const { rows, total, keys } = await listRequestLogPage(session.organizationId, query);
  const { pages, previous, next } = listLinks(REQUEST_LOG_LIST, query, total, filters);
  const filtered = Object.values(filters).some((value) => value !== undefined);

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Logs</h1>
        <p className="text-sm text-slate-600">
          Every request made with an API key in the last {env.REQUEST_LOG_RETENTION_DAYS} days, newest first. Paste the trace id of a response (its <code className="font-mono">X-Trace-Id</code>) to open that request.
        </p>
      </div>

      <form method="get" action="/logs" role="search" className="flex flex-wrap items-end gap-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <div className="w-full min-w-0 sm:w-96">
          <label htmlFor="trace-search" className="block text-sm font-medium text-slate-800">
            Trace id
          </label>
          <input
            id="trace-search"
            name="trace"
            defaultValue={search ?? ""}
            placeholder="24 hex digits, e.g. 5f2c9a0e7b3d41c8a6e2f017"
            aria-describedby={search ? "trace-search-error" : undefined}
            className={`font-mono ${inputClasses(Boolean(search))}`}
          />
        </div>
        <button type="submit" className={buttonClasses.primary}>
          Find request
        </button>
        {search && (
          <p id="trace-search-error" role="alert" className="w-full text-sm text-red-800">
            That is not a trace id: it has 24 hex digits (0–9, a–f), as in a response&apos;s X-Trace-Id header.
          </p>
        )}
      </form>

      <FilterForm
        action="/logs"
        carried={carriedParams(REQUEST_LOG_LIST, query)}
        clearHref={listHref(REQUEST_LOG_LIST, { ...query, page: 1 })}
        filtered={filtered}
      >
        <SelectFilter
          id="status-filter"
          label="Status"
          name="status"
          value={query.status}
          anyLabel="Any status"
          options={STATUS_CLASSES.map((value) => ({ value, label: value }))}
        />
        <SelectFilter id="key-filter" label="Key" name="key_id" value={query.keyId} anyLabel="Any key" options={keys} className="w-full min-w-0 sm:w-72" />
        <InputFilter id="path-filter" label="Path starts with" name="path" value={query.path} placeholder="/v1/orders" />
        <InputFilter id="from-filter" label="From (UTC)" name="created_from" type="datetime-local" value={utcMinuteText(query.createdFrom)} />
        <InputFilter id="to-filter" label="Before (UTC)" name="created_to" type="datetime-local" value={utcMinuteText(query.createdTo)} />
      </FilterForm>

      <Card labelledBy="requests-heading">
        <h2 id="requests-heading" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">
          {filtered ? "Matching requests" : "All requests"} <span className="font-normal text-slate-600">({total.toLocaleString("en-GB")})</span>
        </h2>
        {rows.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-600">
            {total > 0
              ? "This page is past the last request."
              : filtered
                ? "No request matches these filters."
                : "No requests yet. Each request made with an API key appears here within a second or two."}
          </p>
        ) : (
          <LogsTable rows={rows} />
        )}
        <PageNav previous={previous} next={next}>
          Page {query.page} of {pages}
        </PageNav>
      </Card>
    </div>
  );
}
