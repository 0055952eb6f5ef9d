import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import { db, type Queryable } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { SCOPES } from "@/lib/auth/scopes";

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

export async function listApiKeys(organizationId: string, q: Queryable = db): Promise<ApiKeyRow[]> {
  const rows = await q
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      displayPrefix: apiKeys.displayPrefix,
      scopes: apiKeys.scopes,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.organizationId, organizationId))
    .orderBy(desc(apiKeys.createdAt), apiKeys.id);
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }));
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
