import type { Metadata } from "next";
import { WEBHOOK_EVENT_TYPES } from "@/db/schema";
import { INTEGRATION_LIST, integrationsQueryOf, listIntegrationPage } from "@/lib/dashboard/integrations";
import { listLinks, type SearchParams } from "@/lib/dashboard/paging";
import { requireSession } from "@/lib/dashboard/session";
import { PageNav } from "../_components/page-nav";
import { CreateIntegrationForm } from "./create-integration-form";
import { IntegrationsTable } from "./integrations-table";

export const metadata: Metadata = { title: "Integrations · Ticketing analytics" };

export default async function IntegrationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requireSession();
  const query = integrationsQueryOf(await searchParams);
  const { rows, total } = await listIntegrationPage(session.organizationId, query);
  const { pages, previous, next, sorting } = listLinks(INTEGRATION_LIST, query, total);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Integrations</h1>
        <p className="text-sm text-slate-600">
          Webhooks receive a signed <code className="font-mono">OrderCompleted</code> POST for every completed order.
          Verify the <code className="font-mono">X-Webhook-Signature</code> header with the integration&apos;s signing
          secret.
        </p>
      </div>

      <section aria-labelledby="integrations-heading" className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 px-4 py-3">
          <h2 id="integrations-heading" className="text-base font-semibold">
            Webhooks
          </h2>
          <p className="text-sm text-slate-600" data-testid="integrations-count">
            {total.toLocaleString("en-GB")} in total
          </p>
        </div>
        {rows.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-600">
            {total > 0 ? "This page is past the last webhook." : "No webhooks yet. Add one below to be told about every completed order."}
          </p>
        ) : (
          <IntegrationsTable integrations={rows} sortLinks={sorting} />
        )}
        <PageNav previous={previous} next={next}>
          Page {query.page} of {pages}
        </PageNav>
      </section>

      <section aria-labelledby="create-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="create-heading" className="mb-4 text-base font-semibold">
          Add a webhook
        </h2>
        <CreateIntegrationForm eventTypes={WEBHOOK_EVENT_TYPES} />
      </section>
    </div>
  );
}
