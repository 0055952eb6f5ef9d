import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "@/db/schema";
import { countIntegrations, listIntegrations, type IntegrationJson, type IntegrationSort } from "@/lib/webhooks/integrations";
import { apiPageOf, listQueryOf, type ListQuery, type ListSpec, type SearchParams, type SortOrder } from "./paging";

/** An integration as the dashboard lists it: the secret stays on the server until someone reveals it. */
export interface IntegrationRow {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  retrySchedule: string;
  signed: boolean;
  createdAt: string;
  updatedAt: string;
}

function toIntegrationRow(integration: IntegrationJson): IntegrationRow {
  return {
    id: integration.id,
    url: integration.url,
    events: integration.events,
    enabled: integration.enabled,
    retrySchedule: integration.retry_schedule,
    signed: integration.signing_secret !== undefined,
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
  return { rows: integrations.map(toIntegrationRow), total };
}

/** The create-integration form; field names match the form's inputs. */
export const createIntegrationFormSchema = z.strictObject({
  url: z.string().trim().min(1, "Enter the URL that receives the webhooks").max(2000, "At most 2000 characters"),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES), { error: "Choose at least one event" }).min(1, "Choose at least one event"),
});

export const publicIdText = z.string().min(1).max(100);

export const integrationIdFormSchema = z.strictObject({ id: publicIdText });

export const setEnabledFormSchema = z.strictObject({
  id: publicIdText,
  enabled: z.enum(["true", "false"]).transform((value) => value === "true"),
});

export const deliveryIdFormSchema = z.strictObject({ id: publicIdText });
