import { and, count, eq, type SQLWrapper } from "drizzle-orm";
import { z } from "zod";
import { db } from "@/db/client";
import { DELIVERY_STATUSES, webhookDeliveries, webhookIntegrations, type DeliveryStatus } from "@/db/schema";
import { deliveriesWhere, serializeDelivery } from "@/lib/webhooks/deliveries";
import type { DeliveryJson } from "@/lib/webhooks/delivery-schemas";
import { publicIdText } from "./integrations";
import {
  fetchListPage,
  firstParam,
  listQueryOf,
  rankOf,
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
export const DELIVERY_SORTS = { created: "desc", status: "asc", attempts: "desc" } as const satisfies Record<string, SortOrder>;
export type DeliverySort = keyof typeof DELIVERY_SORTS;
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

const SORT_COLUMNS = {
  created: webhookDeliveries.createdAt,
  // Lifecycle order: waiting, running, done, retrying, given up.
  status: rankOf(webhookDeliveries.status, DELIVERY_STATUSES),
  attempts: webhookDeliveries.attemptCount,
} satisfies Record<DeliverySort, SQLWrapper>;

/** One page of the organization's deliveries, filtered by status and integration. */
export async function listDeliveryPage(organizationId: string, query: DeliveriesQuery): Promise<{ rows: DeliveryRow[]; total: number }> {
  const where = deliveriesWhere(organizationId, query);
  const { rows, total } = await fetchListPage(query, {
    rows: db
      .select({ delivery: webhookDeliveries, integrationUrl: webhookIntegrations.url })
      .from(webhookDeliveries)
      .leftJoin(
        webhookIntegrations,
        and(eq(webhookIntegrations.organizationId, webhookDeliveries.organizationId), eq(webhookIntegrations.id, webhookDeliveries.integrationId)),
      )
      .where(where)
      .$dynamic(),
    count: db.select({ value: count() }).from(webhookDeliveries).where(where),
    sortBy: SORT_COLUMNS[query.sort],
    id: webhookDeliveries.id,
  });
  return { rows: rows.map((row) => toDeliveryRow(serializeDelivery(row.delivery), row.integrationUrl)), total };
}
