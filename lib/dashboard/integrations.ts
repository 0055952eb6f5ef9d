import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "@/db/schema";
import { fromPublicId } from "@/lib/ids";
import { countIntegrations, listIntegrations, type IntegrationJson, type IntegrationSort } from "@/lib/webhooks/integrations";
import { latestRecoveries, type RecoveryProgress } from "@/lib/webhooks/recovery";
import { utcDateTime } from "./events";
import { ROTATION_OVERLAPS } from "./rotation-overlaps";
import { apiPageOf, listQueryOf, type ListQuery, type ListSpec, type SearchParams, type SortOrder } from "./paging";

/** An integration as the dashboard lists it: the secret stays on the server until someone reveals it. */
export interface IntegrationRow {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  retrySchedule: string;
  signed: boolean;
  /** While its attempts fail: since when (its deliveries then run a few at a time). */
  failingSince?: string;
  /** During a rotation's overlap: when the previous secret stops signing. */
  previousSecretExpiresAt?: string;
  /** The latest recovery that queued redeliveries, with where they stand. */
  recovery?: RecoveryProgress;
  createdAt: string;
  updatedAt: string;
}

function toIntegrationRow(integration: IntegrationJson, recovery: RecoveryProgress | undefined): IntegrationRow {
  return {
    id: integration.id,
    url: integration.url,
    events: integration.events,
    description: integration.description,
    enabled: integration.enabled,
    retrySchedule: integration.retry_schedule,
    signed: integration.signed,
    failingSince: integration.failing_since,
    previousSecretExpiresAt: integration.previous_secret_expires_at,
    recovery,
    createdAt: integration.created_at,
    updatedAt: integration.updated_at,
  };
}

/** Sort keys of the /integrations table and the direction each starts in. */
export const INTEGRATION_SORTS = { created: "desc", url: "asc" } as const satisfies Record<IntegrationSort, SortOrder>;
export type { IntegrationSort };
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

/** One page of the organization's webhook integrations, as the webhook API lists them. */
export async function listIntegrationPage(
  organizationId: string,
  query: ListQuery<IntegrationSort>,
): Promise<{ rows: IntegrationRow[]; total: number }> {
  const [integrations, total] = await Promise.all([
    listIntegrations(organizationId, undefined, { page: apiPageOf(query), sort: query }),
    countIntegrations(organizationId),
  ]);
  const uuids = integrations.map((integration) => fromPublicId("integration", integration.id)!);
  const recoveries = await latestRecoveries(organizationId, uuids);
  return { rows: integrations.map((integration, index) => toIntegrationRow(integration, recoveries.get(uuids[index]!))), total };
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
