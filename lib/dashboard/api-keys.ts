import { z } from "zod";
import { db, type Queryable } from "@/db/client";
import { countApiKeys, listApiKeys as listApiKeysOf, type ApiKeySort } from "@/lib/auth/api-keys";
import { SCOPES } from "@/lib/auth/scopes";
import { apiPageOf, listQueryOf, type ListQuery, type ListSpec, type SearchParams, type SortOrder } from "./paging";

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

type StoredApiKey = Awaited<ReturnType<typeof listApiKeysOf>>[number];

function toApiKeyRow(row: StoredApiKey): ApiKeyRow {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** Every key of the organization, newest first. */
export async function listApiKeys(organizationId: string, q: Queryable = db): Promise<ApiKeyRow[]> {
  return (await listApiKeysOf(organizationId, {}, q)).map(toApiKeyRow);
}

/** Sort keys of the /api-keys table and the direction each starts in. */
export const API_KEY_SORTS = { created: "desc", last_used: "desc", name: "asc" } as const satisfies Record<ApiKeySort, SortOrder>;
export type { ApiKeySort };
export type ApiKeysQuery = ListQuery<ApiKeySort>;
export const API_KEY_LIST: ListSpec<ApiKeySort> = { path: "/api-keys", sorts: API_KEY_SORTS, fallback: "created" };

/** The /api-keys URL as a list query; unusable parameters fall back to their defaults. */
export function apiKeysQueryOf(params: SearchParams): ApiKeysQuery {
  return listQueryOf(params, API_KEY_LIST);
}

/** One page of the organization's keys, revoked ones included; never-used keys last in both directions of "last used". */
export async function listApiKeyPage(organizationId: string, query: ApiKeysQuery): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    listApiKeysOf(organizationId, { page: apiPageOf(query), sort: query }),
    countApiKeys(organizationId),
  ]);
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
