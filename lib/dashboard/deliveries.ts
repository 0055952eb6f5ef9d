import { z } from "zod";
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type DeliveryStatus } from "@/db/schema";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { orderNumbersOf } from "@/lib/orders/orders";
import { listDeliveries, type DeliveryFilter, type DeliverySort } from "@/lib/webhooks/deliveries";
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
  /** The order's bare id (dashboard order pages use it) and number; null for test deliveries. */
  orderUuid: string | null;
  orderNumber: number | null;
  test: boolean;
}

export function toDeliveryRow(
  delivery: DeliveryJson,
  integrationUrl: string | null,
  order: { uuid: string | null; number: number | null } = { uuid: null, number: null },
): DeliveryRow {
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
    orderUuid: order.uuid,
    orderNumber: order.number,
    test: delivery.test,
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

export type DeliveriesQuery = ListQuery<DeliverySort> & DeliveryFilter;

// The form's datetime-local inputs carry no offset; the filter labels say the times are UTC (the Logs page's too).
export const utcMinute = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/)
  .transform((text) => new Date(`${text}Z`))
  .refine((date) => !Number.isNaN(date.getTime()));

const filtersSchema = z.object({
  statuses: z.array(z.enum(DELIVERY_STATUSES)).optional().catch(undefined),
  integration_id: publicIdText.optional().catch(undefined),
  event_type: z.enum(WEBHOOK_EVENT_TYPES).optional().catch(undefined),
  order: publicIdText.optional().catch(undefined),
  created_from: utcMinute.optional().catch(undefined),
  created_to: utcMinute.optional().catch(undefined),
});

/** Every value of a parameter, whether repeated (checkboxes) or comma separated (links), blanks dropped. */
function allValues(params: SearchParams, name: string): string[] {
  const value = params[name];
  return (Array.isArray(value) ? value : value ? [value] : []).flatMap((v) => v.split(",")).filter((v) => v.trim() !== "");
}

/** The list's filters with page and sort; a bad value falls back to "no filter" or its default. */
export function deliveriesQueryOf(params: SearchParams): DeliveriesQuery {
  const statuses = allValues(params, "status");
  const filters = filtersSchema.parse({
    statuses: statuses.length ? statuses : undefined,
    integration_id: firstParam(params, "integration_id") || undefined,
    event_type: firstParam(params, "event_type") || undefined,
    order: firstParam(params, "order_id")?.trim() || undefined,
    created_from: firstParam(params, "created_from") || undefined,
    created_to: firstParam(params, "created_to") || undefined,
  });
  return {
    ...listQueryOf(params, DELIVERY_LIST),
    statuses: filters.statuses,
    integrationId: filters.integration_id,
    eventType: filters.event_type,
    orderRef: filters.order,
    createdFrom: filters.created_from,
    createdTo: filters.created_to,
  };
}

/** A UTC instant as a datetime-local value. */
export function utcMinuteText(date: Date | undefined): string | undefined {
  return date?.toISOString().slice(0, 16);
}

/** The query's filters as they go into links (paging and sorting keep them). */
export function deliveryFilterParams(query: DeliveriesQuery): FilterParams {
  return {
    status: query.statuses?.join(","),
    integration_id: query.integrationId,
    event_type: query.eventType,
    order_id: query.orderRef,
    created_from: utcMinuteText(query.createdFrom),
    created_to: utcMinuteText(query.createdTo),
  };
}

/** Whether any filter narrows the list. */
export function isFiltered(query: DeliveriesQuery): boolean {
  return Object.values(deliveryFilterParams(query)).some((value) => value !== undefined);
}

/**
 * One page of the organization's deliveries as GET /webhooks/deliveries lists them, with the same filters,
 * each with its integration's URL and its order's number; `integrations` are all of them (the filter offers them).
 */
export async function listDeliveryPage(
  organizationId: string,
  query: DeliveriesQuery,
): Promise<{ rows: DeliveryRow[]; total: number; integrations: IntegrationJson[] }> {
  const [integrations, { data, meta }] = await Promise.all([
    listIntegrations(organizationId),
    listDeliveries(
      organizationId,
      {
        ...apiPageOf(query),
        status: query.statuses,
        integration_id: query.integrationId,
        event_type: query.eventType,
        order_id: query.orderRef,
        created_from: query.createdFrom,
        created_to: query.createdTo,
      },
      undefined,
      query,
    ),
  ]);
  const urls = new Map(integrations.map((integration) => [integration.id, integration.url]));
  const orderUuids = data.flatMap((delivery) => (delivery.order_id ? [fromPublicId("order", delivery.order_id)!] : []));
  const numbers = await orderNumbersOf(organizationId, orderUuids);
  const rows = data.map((delivery) => {
    const uuid = delivery.order_id ? fromPublicId("order", delivery.order_id) : null;
    return toDeliveryRow(delivery, urls.get(delivery.integration_id) ?? null, { uuid, number: uuid ? (numbers.get(uuid) ?? null) : null });
  });
  return { rows, total: meta.total, integrations };
}

/** The number of the organization's order with this bare id, for links; null when it is gone. */
export async function orderNumberOf(organizationId: string, orderUuid: string | null): Promise<number | null> {
  if (!orderUuid) return null;
  return (await orderNumbersOf(organizationId, [orderUuid])).get(orderUuid) ?? null;
}

/** Every delivery of one order (bare id), newest first, as the order's page lists them. */
export async function listOrderDeliveries(organizationId: string, orderUuid: string): Promise<DeliveryRow[]> {
  const query: DeliveriesQuery = { ...deliveriesQueryOf({}), perPage: 100, orderRef: toPublicId("order", orderUuid) };
  return (await listDeliveryPage(organizationId, query)).rows;
}
