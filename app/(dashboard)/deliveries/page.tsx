import type { Metadata } from "next";
import Link from "next/link";
import { DELIVERY_STATUSES } from "@/db/schema";
import {
  DELIVERIES_PER_PAGE,
  deliveriesPageQuerySchema,
  isFinished,
  toDeliveryRow,
} from "@/lib/dashboard/integrations";
import { requireSession } from "@/lib/dashboard/session";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { listIntegrations } from "@/lib/webhooks/integrations";
import { ApiTokenButton } from "../_components/api-token-button";
import { buttonClasses } from "../_components/button-classes";
import { AutoRefresh } from "./auto-refresh";
import { DeliveriesTable } from "./deliveries-table";

export const metadata: Metadata = { title: "Deliveries · Ticketing analytics" };

type SearchParams = Record<string, string | string[] | undefined>;

const selectClasses =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600";

export default async function DeliveriesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requireSession();
  const query = deliveriesPageQuerySchema.parse(await searchParams);
  const [integrations, deliveries] = await Promise.all([
    listIntegrations(session.organizationId),
    listDeliveries(session.organizationId, { ...query, per_page: DELIVERIES_PER_PAGE }),
  ]);
  const urls = new Map(integrations.map((i) => [i.id, i.url]));
  const rows = deliveries.data.map((d) => toDeliveryRow(d, urls));
  const { total } = deliveries.meta;
  const pages = Math.max(1, Math.ceil(total / DELIVERIES_PER_PAGE));
  const filtered = Boolean(query.status || query.integration_id);

  const pageHref = (page: number) => {
    const params = new URLSearchParams();
    if (query.status) params.set("status", query.status);
    if (query.integration_id) params.set("integration_id", query.integration_id);
    if (page > 1) params.set("page", String(page));
    const text = params.toString();
    return text ? `/deliveries?${text}` : "/deliveries";
  };

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Deliveries</h1>
          <p className="text-sm text-slate-600">Every webhook sent to your integrations, newest first, with each attempt.</p>
        </div>
        <AutoRefresh active={rows.some((row) => !isFinished(row.status))} />
      </div>

      <form method="get" action="/deliveries" className="flex flex-wrap items-end gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <div className="w-full sm:w-48">
          <label htmlFor="status-filter" className="block text-sm font-medium text-slate-800">
            Status
          </label>
          <select id="status-filter" name="status" defaultValue={query.status ?? ""} className={selectClasses}>
            <option value="">Any status</option>
            {DELIVERY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </div>
        <div className="w-full min-w-0 sm:w-80">
          <label htmlFor="integration-filter" className="block text-sm font-medium text-slate-800">
            Integration
          </label>
          <select
            id="integration-filter"
            name="integration_id"
            defaultValue={query.integration_id ?? ""}
            className={selectClasses}
          >
            <option value="">Any integration</option>
            {integrations.map((integration) => (
              <option key={integration.id} value={integration.id}>
                {integration.url}
              </option>
            ))}
          </select>
        </div>
        <div className="flex gap-2">
          <button type="submit" className={buttonClasses.primary}>
            Filter
          </button>
          {filtered && (
            <Link href="/deliveries" className={buttonClasses.secondary}>
              Clear
            </Link>
          )}
        </div>
      </form>

      <section aria-labelledby="deliveries-heading" className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <h2 id="deliveries-heading" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">
          {filtered ? "Matching deliveries" : "All deliveries"}{" "}
          <span className="font-normal text-slate-600">({total.toLocaleString("en-GB")})</span>
        </h2>
        {rows.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-600">
            {filtered ? (
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
          <DeliveriesTable deliveries={rows} />
        )}
        {pages > 1 && (
          <nav aria-label="Pages" className="flex items-center justify-between gap-2 border-t border-slate-200 px-4 py-3 text-sm">
            {query.page > 1 ? (
              <Link href={pageHref(query.page - 1)} className={buttonClasses.secondary}>
                Previous
              </Link>
            ) : (
              <span />
            )}
            <span className="text-slate-700">
              Page {query.page} of {pages}
            </span>
            {query.page < pages ? (
              <Link href={pageHref(query.page + 1)} className={buttonClasses.secondary}>
                Next
              </Link>
            ) : (
              <span />
            )}
          </nav>
        )}
      </section>

      <section aria-labelledby="token-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="token-heading" className="text-base font-semibold">
          Inspect deliveries through the API
        </h2>
        <p className="mt-1 mb-3 text-sm text-slate-600">
          <code className="font-mono">GET /webhooks/deliveries</code> and its siblings take a dashboard user token, not an
          API key. The token acts as you and expires after one hour.
        </p>
        <ApiTokenButton />
      </section>
    </div>
  );
}
