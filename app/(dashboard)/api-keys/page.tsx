import type { Metadata } from "next";
import { listApiKeys } from "@/lib/dashboard/api-keys";
import { requireSession } from "@/lib/dashboard/session";
import { ApiTokenButton } from "../_components/api-token-button";
import { ApiKeysTable } from "./api-keys-table";
import { CreateKeyForm } from "./create-key-form";

export const metadata: Metadata = { title: "API keys · Ticketing analytics" };

export default async function ApiKeysPage() {
  const session = await requireSession();
  const keys = await listApiKeys(session.organizationId);
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
        <h2 id="keys-heading" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">
          Keys
        </h2>
        <ApiKeysTable keys={keys} />
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
