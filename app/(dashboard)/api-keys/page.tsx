import type { Metadata } from "next";
import { API_KEY_LIST, apiKeysQueryOf, listApiKeyPage } from "@/lib/dashboard/api-keys";
import { listLinks, type SearchParams } from "@/lib/dashboard/paging";
import { requireSession } from "@/lib/dashboard/session";
import { ApiTokenButton } from "../_components/api-token-button";
import { PageNav } from "../_components/page-nav";
import { ApiKeysTable } from "./api-keys-table";
import { CreateKeyForm } from "./create-key-form";

export const metadata: Metadata = { title: "API keys · Ticketing analytics" };

export default async function ApiKeysPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requireSession();
  const query = apiKeysQueryOf(await searchParams);
  const { rows: keys, total } = await listApiKeyPage(session.organizationId, query);
  const { pages, previous, next, sorting } = listLinks(API_KEY_LIST, query, total);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">API keys</h1>
        <p className="text-sm text-slate-600">
          Keys authenticate API calls (<code className="font-mono">Authorization: Bearer sk_…</code>). Each has scopes and
          a rate limit.
        </p>
      </div>

      <section aria-labelledby="keys-heading" className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 px-4 py-3">
          <h2 id="keys-heading" className="text-base font-semibold">
            Keys
          </h2>
          <p className="text-sm text-slate-600" data-testid="api-keys-count">
            {total.toLocaleString("en-GB")} in total, revoked ones included
          </p>
        </div>
        {keys.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-600">
            {total > 0 ? "This page is past the last key." : "No API keys yet. Create one below to call the API."}
          </p>
        ) : (
          <ApiKeysTable keys={keys} sortLinks={sorting} />
        )}
        <PageNav previous={previous} next={next}>
          Page {query.page} of {pages}
        </PageNav>
      </section>

      <section aria-labelledby="create-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="create-heading" className="mb-4 text-base font-semibold">
          Create a key
        </h2>
        <CreateKeyForm />
      </section>

      <section aria-labelledby="token-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="token-heading" className="text-base font-semibold">
          Dashboard API token
        </h2>
        <p className="mt-1 mb-3 text-sm text-slate-600">
          The webhook delivery inspection endpoints take a user token instead of an API key. It acts as you and
          expires after one hour.
        </p>
        <ApiTokenButton />
      </section>
    </div>
  );
}
