import { and, count, eq, gt, inArray, isNotNull, isNull, sql, type SQLWrapper } from "drizzle-orm";
import { notFound as nextNotFound } from "next/navigation";
import { z } from "zod";
import { db } from "@/db/client";
import { webhookDeliveries, webhookIntegrations, WEBHOOK_EVENT_TYPES } from "@/db/schema";
import { ApiError } from "@/lib/http/errors";
import { utcDateTime } from "./events";
import { ROTATION_OVERLAPS } from "./rotation-overlaps";
import { serializeIntegration, type IntegrationJson } from "@/lib/webhooks/integrations";
import { fetchListPage, listQueryOf, type ListQuery, type ListSpec, type SearchParams, type SortOrder } from "./paging";

/** An integration as the dashboard lists it: the secret stays on the server until someone reveals it. */
export interface IntegrationRow {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  retrySchedule: string;
  signed: boolean;
  /** During a rotation's overlap: when the previous secret stops signing. */
  previousSecretExpiresAt?: string;
  /** Redeliveries (manual or recovered) of the last 24 hours: how many still wait and how many finished. */
  redeliveries: { queued: number; done: number };
  createdAt: string;
  updatedAt: string;
}

function toIntegrationRow(integration: IntegrationJson, redeliveries = { queued: 0, done: 0 }): IntegrationRow {
  return {
    id: integration.id,
    url: integration.url,
    events: integration.events,
    description: integration.description,
    enabled: integration.enabled,
    retrySchedule: integration.retry_schedule,
    signed: integration.signed,
    previousSecretExpiresAt: integration.previous_secret_expires_at,
    redeliveries,
    createdAt: integration.created_at,
    updatedAt: integration.updated_at,
  };
}

/** Sort keys of the /integrations table and the direction each starts in. */
export const INTEGRATION_SORTS = { created: "desc", url: "asc" } as const satisfies Record<string, SortOrder>;
export type IntegrationSort = keyof typeof INTEGRATION_SORTS;
export const INTEGRATION_LIST: ListSpec<IntegrationSort> = {
  path: "/integrations",
  sorts: INTEGRATION_SORTS,
  fallback: "created",
  // Each integration's row carries its controls, so a page holds fewer of them than other tables do.
  perPage: 10,
};

export function integrationsQueryOf(params: SearchParams): ListQuery<IntegrationSort> {
  return listQueryOf(params, INTEGRATION_LIST);
}

const SORT_COLUMNS = {
  created: webhookIntegrations.createdAt,
  url: sql`lower(${webhookIntegrations.url})`,
} satisfies Record<IntegrationSort, SQLWrapper>;

/** One page of the organization's webhook integrations. */
export async function listIntegrationPage(
  organizationId: string,
  query: ListQuery<IntegrationSort>,
): Promise<{ rows: IntegrationRow[]; total: number }> {
  const where = and(eq(webhookIntegrations.organizationId, organizationId), isNull(webhookIntegrations.deletedAt));
  const { rows, total } = await fetchListPage(query, {
    rows: db.select().from(webhookIntegrations).where(where).$dynamic(),
    count: db.select({ value: count() }).from(webhookIntegrations).where(where),
    sortBy: SORT_COLUMNS[query.sort],
    id: webhookIntegrations.id,
  });
  const progress = await redeliveryProgress(organizationId, rows.map((row) => row.id));
  return { rows: rows.map((row) => toIntegrationRow(serializeIntegration(row), progress.get(row.id))), total };
}

/** Per integration: its redeliveries of the last 24 hours, unfinished (queued) and finished (done). */
async function redeliveryProgress(organizationId: string, integrationIds: string[]) {
  if (integrationIds.length === 0) return new Map<string, { queued: number; done: number }>();
  const rows = await db
    .select({
      integrationId: webhookDeliveries.integrationId,
      queued: sql<number>`count(*) filter (where ${webhookDeliveries.status} in ('Pending','InProgress','Failed'))::int`,
      done: sql<number>`count(*) filter (where ${webhookDeliveries.status} in ('Success','PermanentlyFailed'))::int`,
    })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.organizationId, organizationId),
        inArray(webhookDeliveries.integrationId, integrationIds),
        isNotNull(webhookDeliveries.redeliveryOf),
        gt(webhookDeliveries.createdAt, sql`now() - interval '24 hours'`),
      ),
    )
    .groupBy(webhookDeliveries.integrationId);
  return new Map(rows.map((row) => [row.integrationId, { queued: row.queued, done: row.done }]));
}


/** A domain lookup whose not_found becomes the dashboard's 404 page (malformed and foreign ids alike). */
export async function orNotFound<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") nextNotFound();
    throw error;
  }
}

/** The create-integration form; field names match the form's inputs. */
export const createIntegrationFormSchema = z.strictObject({
  url: z.string().trim().min(1, "Enter the URL that receives the webhooks").max(2000, "At most 2000 characters"),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES), { error: "Choose at least one event" }).min(1, "Choose at least one event"),
  description: z.string().max(500, "At most 500 characters").optional(),
});

export const publicIdText = z.string().min(1).max(100);

/** The edit form: the create form's fields for one integration. */
export const editIntegrationFormSchema = createIntegrationFormSchema.extend({ id: publicIdText });

export const rotateSecretFormSchema = z.strictObject({
  id: publicIdText,
  expire_previous_in: z.coerce.number().pipe(z.union(ROTATION_OVERLAPS.map((s) => z.literal(s)))).default(0),
});

export const integrationIdFormSchema = z.strictObject({ id: publicIdText });

export const setEnabledFormSchema = z.strictObject({
  id: publicIdText,
  enabled: z.enum(["true", "false"]).transform((value) => value === "true"),
});

export const deliveryIdFormSchema = z.strictObject({ id: publicIdText });

/** The recover form: a window of UTC `datetime-local` values; an empty "until" means now. */
export const recoverFormSchema = z.strictObject({
  id: publicIdText,
  since: utcDateTime,
  until: z.union([z.literal("").transform(() => undefined), utcDateTime]).optional(),
});
