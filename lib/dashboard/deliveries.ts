import { z } from "zod";
import { DELIVERY_STATUSES, type DeliveryStatus } from "@/db/schema";
import { listDeliveries, type DeliverySort } from "@/lib/webhooks/deliveries";
import type { DeliveryJson } from "@/lib/webhooks/delivery-schemas";
import { listIntegrations, type IntegrationJson } from "@/lib/webhooks/integrations";
import { publicIdText } from "./integrations";
import {
  apiPageOf,
  firstParam,
  listQueryOf,
  type FilterParams,
  type ListQuery,
  type ListSpec,
  type SearchParams,
  type SortOrder,
} from "./paging";

/** A delivery as the dashboard lists it, with its integration's URL for people (ids are for machines). */
export interface DeliveryRow {
  id: string;
  integrationId: string;
  integrationUrl: string | null;
  eventType: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextRetryAt: string | null;
  createdAt: string;
  redeliveryOf: string | null;
}

export function toDeliveryRow(delivery: DeliveryJson, integrationUrl: string | null): DeliveryRow {
  return {
    id: delivery.id,
    integrationId: delivery.integration_id,
    integrationUrl,
    eventType: delivery.event_type,
    status: delivery.status,
    attemptCount: delivery.attempt_count,
    nextRetryAt: delivery.next_retry_at ?? null,
    createdAt: delivery.created_at,
    redeliveryOf: delivery.redelivery_of ?? null,
  };
}

/** Statuses after which nothing happens on its own any more. */
export function isFinished(status: DeliveryStatus): boolean {
  return status === "Success" || status === "PermanentlyFailed";
}

/** Sort keys of the /deliveries table and the direction each starts in. */
export const DELIVERY_SORTS = { created: "desc", status: "asc", attempts: "desc" } as const satisfies Record<DeliverySort, SortOrder>;
export type { DeliverySort };
export const DELIVERY_LIST: ListSpec<DeliverySort> = { path: "/deliveries", sorts: DELIVERY_SORTS, fallback: "created" };

export interface DeliveriesQuery extends ListQuery<DeliverySort> {
  status?: DeliveryStatus;
  integrationId?: string;
}

const filtersSchema = z.object({
  status: z.enum(DELIVERY_STATUSES).optional().catch(undefined),
  integration_id: publicIdText.optional().catch(undefined),
});

/** `?status=&integration_id=` with page and sort; a bad value falls back to "no filter" or its default. */
export function deliveriesQueryOf(params: SearchParams): DeliveriesQuery {
  const filters = filtersSchema.parse({ status: firstParam(params, "status"), integration_id: firstParam(params, "integration_id") });
  return { ...listQueryOf(params, DELIVERY_LIST), status: filters.status, integrationId: filters.integration_id };
}

/** The query's filters as they go into links (paging and sorting keep them). */
export function deliveryFilterParams(query: DeliveriesQuery): FilterParams {
  return { status: query.status, integration_id: query.integrationId };
}

/**
 * One page of the organization's deliveries as GET /webhooks/deliveries lists them, filtered by status and
 * integration, each with its integration's URL; `integrations` are all of them (the filter offers them).
 */
export async function listDeliveryPage(
  organizationId: string,
  query: DeliveriesQuery,
): Promise<{ rows: DeliveryRow[]; total: number; integrations: IntegrationJson[] }> {
  const [integrations, { data, meta }] = await Promise.all([
    listIntegrations(organizationId),
    listDeliveries(organizationId, { ...apiPageOf(query), status: query.status, integration_id: query.integrationId }, undefined, query),
  ]);
  const urls = new Map(integrations.map((integration) => [integration.id, integration.url]));
  return { rows: data.map((delivery) => toDeliveryRow(delivery, urls.get(delivery.integration_id) ?? null)), total: meta.total, integrations };
}
