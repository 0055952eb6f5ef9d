import type { Metadata } from "next";
import { API_KEY_LIST, apiKeysQueryOf, listApiKeyPage } from "@/lib/dashboard/api-keys";
import { listLinks, type SearchParams } from "@/lib/dashboard/paging";
import { requireSession } from "@/lib/dashboard/session";
import { ApiTokenButton } from "../_components/api-token-button";
import { FormSection, PagedListSection } from "../_components/sections";
import { ApiKeysTable } from "./api-keys-table";
import { CreateKeyForm } from "./create-key-form";
import { Card } from "../_components/card";

export const metadata: Metadata = { title: "API keys · Ticketing analytics" };

export default async function ApiKeysPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requireSession("api_keys");
  const query = apiKeysQueryOf(await searchParams);
  const { rows: keys, total } = await listApiKeyPage(session.organizationId, query);
  const { sorting, ...paging } = listLinks(API_KEY_LIST, query, total);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">API keys</h1>
        <p className="text-sm text-slate-600">
          Keys authenticate API calls (<code className="font-mono">Authorization: Bearer sk_…</code>). Each has scopes and
          a rate limit.
        </p>
      </div>

      <PagedListSection
        id="keys-heading"
        title="Keys"
        total={total}
        totalNote="revoked ones included"
        countTestId="api-keys-count"
        emptyText="No API keys yet. Create one below to call the API."
        pastEndText="This page is past the last key."
        rowCount={keys.length}
        paging={{ ...paging, page: query.page }}
      >
        <ApiKeysTable keys={keys} sortLinks={sorting} />
      </PagedListSection>

      <FormSection id="create-heading" title="Create a key">
        <CreateKeyForm />
      </FormSection>

      <Card labelledBy="token-heading" padded>
        <h2 id="token-heading" className="text-base font-semibold">
          Dashboard API token
        </h2>
        <p className="mt-1 mb-3 text-sm text-slate-600">
          The webhook delivery inspection endpoints take a user token instead of an API key. It acts as you and
          expires after one hour.
        </p>
        <ApiTokenButton />
      </Card>
    </div>
  );
}
