import "server-only";
import { and, count, eq, isNull, sql, type SQL } from "drizzle-orm";
import { db, rowsOf, statementWithGenericPlan, type Queryable } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import { env } from "@/lib/env";
import { rateLimitResult, type RateLimitResult, type RateLimitRow } from "@/lib/http/rate-limit";
import { NEWEST_FIRST, orderThenId, pageOf, type ListOrder, type PaginationQuery, type SortColumn } from "@/lib/http/pagination";
import { constantTimeEqual, hmacSha256, randomToken, sha256Hex } from "./secrets";
import { isScope, type Scope } from "./scopes";

export const API_KEY_PREFIX = "sk_";
const KEY_FORMAT = /^sk_[A-Za-z0-9_-]{20,128}$/;

export interface AuthenticatedKey {
  id: string;
  organizationId: string;
  scopes: string[];
  rateLimitPerMinute: number;
}

export interface NewApiKey {
  organizationId: string;
  name: string;
  scopes: Scope[];
  rateLimitPerMinute?: number;
}

/** Creates a key and returns its full text: the only moment it exists outside the caller's hands. */
export async function createApiKey(input: NewApiKey, q: Queryable = db, fullKey = API_KEY_PREFIX + randomToken(24)) {
  for (const scope of input.scopes) if (!isScope(scope)) throw new Error(`Unknown scope: ${scope}`);
  const row = await q.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(apiKeys)
      .values({
        organizationId: input.organizationId,
        name: input.name,
        keyHash: sha256Hex(fullKey),
        displayPrefix: fullKey.slice(0, 10),
        scopes: input.scopes,
        rateLimitPerMinute: input.rateLimitPerMinute ?? 60,
      })
      .returning();
    await recordAudit(tx, {
      organizationId: inserted!.organizationId,
      action: "api_key.created",
      target: { type: "api_key", id: inserted!.id, label: inserted!.name },
      details: { prefix: inserted!.displayPrefix, scopes: inserted!.scopes, rate_limit_per_minute: inserted!.rateLimitPerMinute },
    });
    return inserted!;
  });
  return { key: fullKey, record: row };
}

/** The demo key is derived from the auth secret, so every start can print it while only its hash is stored. */
export function demoApiKey(): string {
  return API_KEY_PREFIX + "demo_" + hmacSha256(env.AUTH_SECRET, "demo-api-key").toString("base64url").slice(0, 32);
}

/** Revokes one of the organization's keys; null when it has no such key or the key is already revoked. */
export function revokeApiKey(organizationId: string, keyId: string, q: Queryable = db) {
  return revokeWhere(and(eq(apiKeys.id, keyId), eq(apiKeys.organizationId, organizationId)), q);
}

/** The operator's revoke (admin CLI), for a key of any organization. Tenant-facing code uses revokeApiKey. */
export function revokeApiKeyById(keyId: string, q: Queryable = db) {
  return revokeWhere(eq(apiKeys.id, keyId), q);
}

async function revokeWhere(condition: SQL | undefined, q: Queryable) {
  return q.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(condition, isNull(apiKeys.revokedAt)))
      .returning();
    if (!row) return null;
    await recordAudit(tx, {
      organizationId: row.organizationId,
      action: "api_key.revoked",
      target: { type: "api_key", id: row.id, label: row.name },
      details: { prefix: row.displayPrefix },
    });
    return row;
  });
}

/** The key behind an Authorization header value, or null when it is missing, malformed, unknown or revoked. */
export async function authenticateApiKey(presented: string): Promise<AuthenticatedKey | null> {
  if (!KEY_FORMAT.test(presented)) return null;
  const hash = sha256Hex(presented);
  const [row] = await db
    .select({
      id: apiKeys.id,
      organizationId: apiKeys.organizationId,
      scopes: apiKeys.scopes,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
      keyHash: apiKeys.keyHash,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, hash))
    .limit(1);
  if (!row || row.revokedAt || !constantTimeEqual(row.keyHash, hash)) return null;
  return {
    id: row.id,
    organizationId: row.organizationId,
    scopes: row.scopes,
    rateLimitPerMinute: row.rateLimitPerMinute,
  };
}

// Every API request runs it: rendered once, planned once per session (a lookup by the key's hash).
const keyAndHit = statementWithGenericPlan(
  () => sql`
    select k.id, k.organization_id, k.scopes, k.rate_limit_per_minute, hit.allowed, hit.remaining, hit.reset_at
      from ${apiKeys} k cross join lateral rate_limit_hit(k.id, k.rate_limit_per_minute) hit
     where k.key_hash = ${sql.placeholder("hash")} and k.revoked_at is null`,
);

/**
 * authenticateApiKey and the key's rate_limit_hit (lib/http/rate-limit.ts) in one statement, so one round trip:
 * the hit is counted only for a key that exists and is not revoked. Null as authenticateApiKey gives it.
 */
export async function authenticateApiKeyAndHit(
  presented: string,
): Promise<{ key: AuthenticatedKey; rateLimit: RateLimitResult } | null> {
  if (!KEY_FORMAT.test(presented)) return null;
  const [row] = rowsOf<{ id: string; organization_id: string; scopes: string[]; rate_limit_per_minute: number } & RateLimitRow>(
    await keyAndHit({ hash: sha256Hex(presented) }),
  );
  if (!row) return null;
  return {
    key: { id: row.id, organizationId: row.organization_id, scopes: row.scopes, rateLimitPerMinute: row.rate_limit_per_minute },
    rateLimit: rateLimitResult(row, row.rate_limit_per_minute),
  };
}

/** What a key's owner may see of it: never the hash. */
const listedColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  displayPrefix: apiKeys.displayPrefix,
  scopes: apiKeys.scopes,
  rateLimitPerMinute: apiKeys.rateLimitPerMinute,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

const SORT_COLUMNS = {
  created: apiKeys.createdAt,
  // Never-used keys come last in both directions.
  last_used: { nullsLast: apiKeys.lastUsedAt },
  name: sql`lower(${apiKeys.name})`,
} satisfies Record<string, SortColumn>;
export type ApiKeySort = keyof typeof SORT_COLUMNS;

/** The organization's keys, revoked ones included: every one newest first, or one `page` in `sort` (counted by countApiKeys). */
export async function listApiKeys(
  organizationId: string,
  options: { page?: PaginationQuery; sort?: ListOrder<ApiKeySort> } = {},
  q: Queryable = db,
) {
  const { sort = NEWEST_FIRST, page } = options;
  const query = q
    .select(listedColumns)
    .from(apiKeys)
    .where(eq(apiKeys.organizationId, organizationId))
    .orderBy(...orderThenId(SORT_COLUMNS[sort.sort], apiKeys.id, sort.order))
    .$dynamic();
  return page ? query.limit(pageOf(page).limit).offset(pageOf(page).offset) : query;
}

export async function countApiKeys(organizationId: string, q: Queryable = db): Promise<number> {
  const [row] = await q.select({ value: count() }).from(apiKeys).where(eq(apiKeys.organizationId, organizationId));
  return row?.value ?? 0;
}
