"use server";

import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { can } from "@/lib/auth/permissions";
import { hasScope, type Scope } from "@/lib/auth/scopes";
import { issueUserToken } from "@/lib/auth/user-token";
import { createApiKeyFormSchema, revokeApiKeyFormSchema } from "@/lib/dashboard/api-keys";
import { formAction } from "@/lib/dashboard/form-action";
import { type FormState } from "@/lib/dashboard/forms";
import { requireSession, type DashboardSession } from "@/lib/dashboard/session";
import { ApiError } from "@/lib/http/errors";

export interface CreateApiKeyState extends FormState {
  /** What was submitted, so a form with errors keeps the user's input. */
  values?: { name: string; scopes: string[]; rateLimitPerMinute: string };
  /** The full key, present only in the response to the request that created it. */
  created?: { name: string; key: string };
}

/** A key reads what its scopes allow: a role without the audit log's permission cannot make a key that reads it. */
function refuseScopesBeyondRole(session: DashboardSession, scopes: readonly Scope[]) {
  if (can(session.role, "audit") || !scopes.some((scope) => hasScope([scope], "audit:read"))) return;
  const message = `Your role (${session.role}) cannot create a key with audit:read or *: only owners and admins read the audit log`;
  throw new ApiError("forbidden", message, [{ path: "scopes", message }]);
}

export const createApiKeyAction = formAction({
  permission: "api_keys",
  schema: createApiKeyFormSchema,
  lists: ["scopes"],
  unknown: "This form is out of date; reload the page",
  keep: (input): CreateApiKeyState => ({
    values: { name: String(input.name ?? ""), scopes: input.scopes as string[], rateLimitPerMinute: String(input.rateLimitPerMinute ?? "") },
  }),
  run: async (session, data): Promise<CreateApiKeyState> => {
    refuseScopesBeyondRole(session, data.scopes);
    const { key } = await createApiKey({ organizationId: session.organizationId, ...data });
    return { created: { name: data.name, key } };
  },
  revalidate: () => ["/api-keys"],
});

export const revokeApiKeyAction = formAction({
  permission: "api_keys",
  schema: revokeApiKeyFormSchema,
  unknown: "Unknown API key; reload the page",
  run: async (session, { id }): Promise<FormState> => {
    const revoked = await revokeApiKey(session.organizationId, id);
    return revoked ? { notice: "Key revoked." } : { error: "This key was not found or is already revoked" };
  },
  revalidate: () => ["/api-keys"],
});

const API_TOKEN_TTL_SECONDS = 60 * 60;

/** A dashboard user JWT for the webhook delivery inspection endpoints, valid for one hour. */
export async function issueApiTokenAction(): Promise<{ token: string; expiresAt: string }> {
  const session = await requireSession("api_keys");
  const now = Date.now();
  return {
    token: await issueUserToken(session, API_TOKEN_TTL_SECONDS, now),
    expiresAt: new Date(now + API_TOKEN_TTL_SECONDS * 1000).toISOString(),
  };
}
