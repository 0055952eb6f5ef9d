import { count, desc, eq, sql } from "drizzle-orm";
import type { SortColumn } from "@/lib/http/pagination";
import { z } from "zod";
import { db, type Queryable } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { SCOPES } from "@/lib/auth/scopes";
import {
  fetchListPage,
  listQueryOf,
  type ListQuery,
  type ListSpec,
  type SearchParams,
  type SortOrder,
} from "./paging";

/** An API key as the dashboard lists it: never the hash, dates as ISO strings for client components. */
export interface ApiKeyRow {
  id: string;
  name: string;
  displayPrefix: string;
  scopes: string[];
  rateLimitPerMinute: number;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const apiKeyColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  displayPrefix: apiKeys.displayPrefix,
  scopes: apiKeys.scopes,
  rateLimitPerMinute: apiKeys.rateLimitPerMinute,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

type StoredApiKey = Omit<ApiKeyRow, "createdAt" | "lastUsedAt" | "revokedAt"> & {
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

function toApiKeyRow(row: StoredApiKey): ApiKeyRow {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export async function listApiKeys(organizationId: string, q: Queryable = db): Promise<ApiKeyRow[]> {
  const rows = await q
    .select(apiKeyColumns)
    .from(apiKeys)
    .where(eq(apiKeys.organizationId, organizationId))
    .orderBy(desc(apiKeys.createdAt), apiKeys.id);
  return rows.map(toApiKeyRow);
}

/** Sort keys of the /api-keys table and the direction each starts in. */
export const API_KEY_SORTS = { created: "desc", last_used: "desc", name: "asc" } as const satisfies Record<string, SortOrder>;
export type ApiKeySort = keyof typeof API_KEY_SORTS;
export type ApiKeysQuery = ListQuery<ApiKeySort>;
export const API_KEY_LIST: ListSpec<ApiKeySort> = { path: "/api-keys", sorts: API_KEY_SORTS, fallback: "created" };

/** The /api-keys URL as a list query; unusable parameters fall back to their defaults. */
export function apiKeysQueryOf(params: SearchParams): ApiKeysQuery {
  return listQueryOf(params, API_KEY_LIST);
}

const SORT_COLUMNS = {
  created: apiKeys.createdAt,
  last_used: { nullsLast: apiKeys.lastUsedAt },
  name: sql`lower(${apiKeys.name})`,
} satisfies Record<ApiKeySort, SortColumn>;

/**
 * One page of the organization's keys, revoked ones included. Never-used keys come last in both
 * directions of "last used"; the id breaks ties so rows never swap places between pages.
 */
export async function listApiKeyPage(organizationId: string, query: ApiKeysQuery): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const where = eq(apiKeys.organizationId, organizationId);
  const { rows, total } = await fetchListPage(query, {
    rows: db.select(apiKeyColumns).from(apiKeys).where(where).$dynamic(),
    count: db.select({ value: count() }).from(apiKeys).where(where),
    sortBy: SORT_COLUMNS[query.sort],
    id: apiKeys.id,
  });
  return { rows: rows.map(toApiKeyRow), total };
}

export const MAX_RATE_LIMIT = 1_000_000;

/** The create-key form; field names match the form's inputs. */
export const createApiKeyFormSchema = z.strictObject({
  name: z.string().trim().min(1, "Give the key a name").max(100, "At most 100 characters"),
  scopes: z.array(z.enum(SCOPES), { error: "Choose at least one scope" }).min(1, "Choose at least one scope"),
  rateLimitPerMinute: z.coerce
    .number({ error: "Enter a whole number" })
    .int("Enter a whole number")
    .min(1, "At least 1 request per minute")
    .max(MAX_RATE_LIMIT, "At most 1,000,000 requests per minute"),
});

export const revokeApiKeyFormSchema = z.strictObject({ id: z.uuid() });
