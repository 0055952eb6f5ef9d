import type { Metadata } from "next";
import { WEBHOOK_EVENT_TYPES } from "@/db/schema";
import { INTEGRATION_LIST, integrationsQueryOf, listIntegrationPage } from "@/lib/dashboard/integrations";
import { listLinks, type SearchParams } from "@/lib/dashboard/paging";
import { requireSession } from "@/lib/dashboard/session";
import { FailingIntegrationsBanner } from "../_components/failing-integrations-banner";
import { FormSection, PagedListSection } from "../_components/sections";
import { CreateIntegrationForm } from "./create-integration-form";
import { IntegrationsTable } from "./integrations-table";
import { RetryScheduleForm } from "./retry-schedule-form";

export const metadata: Metadata = { title: "Integrations · Ticketing analytics" };

export default async function IntegrationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requireSession("integrations");
  const query = integrationsQueryOf(await searchParams);
  const { rows, total } = await listIntegrationPage(session.organizationId, query);
  const { sorting, ...paging } = listLinks(INTEGRATION_LIST, query, total);
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

      <FailingIntegrationsBanner organizationId={session.organizationId} />

      <PagedListSection
        id="integrations-heading"
        title="Webhooks"
        total={total}
        countTestId="integrations-count"
        emptyText="No webhooks yet. Add one below to be told about every completed order."
        pastEndText="This page is past the last webhook."
        rowCount={rows.length}
        paging={{ ...paging, page: query.page }}
      >
        <IntegrationsTable integrations={rows} sortLinks={sorting} eventTypes={WEBHOOK_EVENT_TYPES} />
      </PagedListSection>

      {rows.length > 0 && (
        <FormSection id="retry-schedule-heading" title="Retry schedule">
          <div className="space-y-4">
            {rows.map((integration) => (
              <RetryScheduleForm key={integration.id} integration={integration} />
            ))}
          </div>
        </FormSection>
      )}

      <FormSection id="create-heading" title="Add a webhook">
        <CreateIntegrationForm eventTypes={WEBHOOK_EVENT_TYPES} />
      </FormSection>
    </div>
  );
}
