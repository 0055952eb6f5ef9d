import { createApiKey } from "@/lib/auth/api-keys";
import type { Scope } from "@/lib/auth/scopes";
import { createUser } from "@/lib/auth/users";
import { issueUserToken } from "@/lib/auth/user-token";
import { createOrganization } from "@/lib/organizations/organizations";
import type { Currency } from "@/db/schema";

/** The password of every createTenant user (tests sign in with it, or look for it where it must not be). */
export const TENANT_PASSWORD = "correct horse battery staple";

/** An organization with an admin user, a key with the given scopes and a dashboard user token. */
export async function createTenant(
  options: { name?: string; currency?: Currency; scopes?: Scope[]; rateLimitPerMinute?: number } = {},
) {
  const organization = await createOrganization({
    name: options.name ?? `Org ${Math.random().toString(36).slice(2, 8)}`,
    currency: options.currency ?? "SEK",
  });
  const user = await createUser({
    organizationId: organization.id,
    email: `admin-${organization.id}@example.test`,
    password: TENANT_PASSWORD,
  });
  const { key, record } = await createApiKey({
    organizationId: organization.id,
    name: "test key",
    scopes: options.scopes ?? ["*"],
    rateLimitPerMinute: options.rateLimitPerMinute ?? 10_000,
  });
  return {
    organization,
    user,
    apiKey: key,
    apiKeyId: record.id,
    userToken: await issueUserToken({ userId: user.id, organizationId: organization.id, sessionVersion: user.sessionVersion }),
  };
}

/** fetch with the Authorization header and JSON body set, for API calls in tests. */
export function apiClient(baseUrl: string, credential: string) {
  return (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${baseUrl}${path}`, {
      method: init.method ?? "GET",
      headers: {
        Authorization: `Bearer ${credential}`,
        ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
}
