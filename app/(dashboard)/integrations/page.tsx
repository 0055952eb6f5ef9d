import type { Metadata } from "next";
import { WEBHOOK_EVENT_TYPES } from "@/db/schema";
import { toIntegrationRow } from "@/lib/dashboard/integrations";
import { requireSession } from "@/lib/dashboard/session";
import { listIntegrations } from "@/lib/webhooks/integrations";
import { CreateIntegrationForm } from "./create-integration-form";
import { IntegrationsTable } from "./integrations-table";

export const metadata: Metadata = { title: "Integrations · Ticketing analytics" };

export default async function IntegrationsPage() {
  const session = await requireSession();
  const integrations = (await listIntegrations(session.organizationId)).map(toIntegrationRow);
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
        <h2 id="integrations-heading" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">
          Webhooks
        </h2>
        <IntegrationsTable integrations={integrations} />
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
