import { and, asc, count, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { db, type Queryable } from "@/db/client";
import { DELIVERY_STATUSES, orders, webhookAttempts, webhookDeliveries, type DeliveryStatus, type WebhookEventType } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import { notFound } from "@/lib/http/errors";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { announceDeliveries } from "./outbox";
import type { AttemptJson, DeliveryDetailJson, DeliveryJson, ListDeliveriesQuery } from "./delivery-schemas";
import { NEWEST_FIRST, orderThenId, pageMeta, pageOf, rankOf, type ListOrder, type SortColumn } from "@/lib/http/pagination";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

export function serializeDelivery(row: DeliveryRow): DeliveryJson {
  return {
    id: toPublicId("delivery", row.id),
    integration_id: toPublicId("integration", row.integrationId),
    event_type: row.eventType,
    status: row.status,
    attempt_count: row.attemptCount,
    ...(row.nextRetryAt ? { next_retry_at: row.nextRetryAt.toISOString() } : {}),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...(row.lastAttemptAt ? { last_attempt_at: row.lastAttemptAt.toISOString() } : {}),
    ...(row.orderId ? { order_id: toPublicId("order", row.orderId) } : {}),
    test: row.test,
    ...(row.redeliveryOf ? { redelivery_of: toPublicId("delivery", row.redeliveryOf) } : {}),
  };
}

function serializeAttempt(row: AttemptRow): AttemptJson {
  return {
    attempt_number: row.attemptNumber,
    ...(row.requestUrl !== null ? { request_url: row.requestUrl } : {}),
    ...(row.requestMethod !== null ? { request_method: row.requestMethod } : {}),
    ...(row.requestHeaders !== null ? { request_headers: row.requestHeaders } : {}),
    ...(row.startedAt !== null ? { started_at: row.startedAt.toISOString() } : {}),
    ...(row.statusCode !== null ? { status_code: row.statusCode } : {}),
    ...(row.responseHeaders !== null ? { response_headers: row.responseHeaders } : {}),
    ...(row.responseBody !== null ? { response_body: row.responseBody } : {}),
    duration_ms: row.durationMs,
    ...(row.errorMessage !== null ? { error_message: row.errorMessage } : {}),
    created_at: row.createdAt.toISOString(),
  };
}

/** What the API's and the dashboard's delivery lists filter by; every part optional. */
export interface DeliveryFilter {
  statuses?: DeliveryStatus[];
  /** Public id (int_…). */
  integrationId?: string;
  eventType?: WebhookEventType;
  /** Public id (ord_…) or the order number. */
  orderRef?: string;
  createdFrom?: Date;
  /** Exclusive: deliveries created before this instant. */
  createdTo?: Date;
}

/** The deliveries of `organizationId`'s order given by public id or number, as a condition. */
function orderCondition(organizationId: string, order: string): SQL {
  if (/^\d{1,9}$/.test(order)) {
    const byNumber = sql`(select ${orders.id} from ${orders} where ${orders.organizationId} = ${organizationId} and ${orders.orderNumber} = ${Number(order)})`;
    return sql`${webhookDeliveries.orderId} = ${byNumber}`;
  }
  const orderId = fromPublicId("order", order);
  return orderId ? eq(webhookDeliveries.orderId, orderId) : sql`false`;
}

/** The organization's deliveries matching `filter`, as a WHERE. Malformed or foreign ids simply match nothing. */
function deliveriesWhere(organizationId: string, filter: DeliveryFilter): SQL | undefined {
  const filters = [eq(webhookDeliveries.organizationId, organizationId)];
  if (filter.statuses?.length) filters.push(inArray(webhookDeliveries.status, filter.statuses));
  if (filter.integrationId) {
    const integrationId = fromPublicId("integration", filter.integrationId);
    filters.push(integrationId ? eq(webhookDeliveries.integrationId, integrationId) : sql`false`);
  }
  if (filter.eventType) filters.push(eq(webhookDeliveries.eventType, filter.eventType));
  if (filter.orderRef) filters.push(orderCondition(organizationId, filter.orderRef));
  if (filter.createdFrom) filters.push(gte(webhookDeliveries.createdAt, filter.createdFrom));
  if (filter.createdTo) filters.push(lt(webhookDeliveries.createdAt, filter.createdTo));
  return and(...filters);
}

/** The orders a delivery list can come in (the API's is newest first; the dashboard's table offers the others). */
const SORT_COLUMNS = {
  created: webhookDeliveries.createdAt,
  // Lifecycle order: waiting, running, done, retrying, given up.
  status: rankOf(webhookDeliveries.status, DELIVERY_STATUSES),
  attempts: webhookDeliveries.attemptCount,
} satisfies Record<string, SortColumn>;
export type DeliverySort = keyof typeof SORT_COLUMNS;

export async function listDeliveries(
  organizationId: string,
  query: ListDeliveriesQuery,
  q: Queryable = db,
  sort: ListOrder<DeliverySort> = NEWEST_FIRST,
) {
  const where = deliveriesWhere(organizationId, {
    statuses: query.status,
    integrationId: query.integration_id,
    eventType: query.event_type,
    orderRef: query.order_id,
    createdFrom: query.created_from,
    createdTo: query.created_to,
  });
  const { limit, offset } = pageOf(query);
  const [rows, [total]] = await Promise.all([
    q
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(...orderThenId(SORT_COLUMNS[sort.sort], webhookDeliveries.id, sort.order))
      .limit(limit)
      .offset(offset),
    q.select({ total: count() }).from(webhookDeliveries).where(where),
  ]);
  return { data: rows.map(serializeDelivery), meta: pageMeta(query, total?.total ?? 0) };
}

async function findDelivery(organizationId: string, publicId: string, q: Queryable): Promise<DeliveryRow> {
  const id = fromPublicId("delivery", publicId);
  if (!id) throw notFound("Delivery");
  const [row] = await q
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.organizationId, organizationId), eq(webhookDeliveries.id, id)))
    .limit(1);
  if (!row) throw notFound("Delivery");
  return row;
}

/** One delivery with its payload and the ids of its redeliveries. */
export async function getDelivery(organizationId: string, publicId: string, q: Queryable = db): Promise<DeliveryDetailJson> {
  return (await getDeliveryDetail(organizationId, publicId, q)).delivery;
}

/** getDelivery, plus the payload's exact bytes as sent (the dashboard's "copy raw"). */
export async function getDeliveryDetail(
  organizationId: string,
  publicId: string,
  q: Queryable = db,
): Promise<{ delivery: DeliveryDetailJson; rawPayload: string }> {
  const row = await findDelivery(organizationId, publicId, q);
  const redeliveries = await q
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.organizationId, organizationId), eq(webhookDeliveries.redeliveryOf, row.id)))
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));
  const delivery = {
    ...serializeDelivery(row),
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    redeliveries: redeliveries.map((r) => toPublicId("delivery", r.id)),
  };
  return { delivery, rawPayload: row.payload };
}

export async function listAttempts(organizationId: string, publicId: string, q: Queryable = db): Promise<{ data: AttemptJson[] }> {
  const delivery = await findDelivery(organizationId, publicId, q);
  const rows = await q
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, delivery.id))
    .orderBy(asc(webhookAttempts.attemptNumber));
  return { data: rows.map(serializeAttempt) };
}

/** A manual resend: a new delivery of the same body to the same integration; the caller announces it. */
export async function createRedelivery(organizationId: string, publicId: string, q: Queryable = db): Promise<DeliveryRow> {
  const original = await findDelivery(organizationId, publicId, q);
  const [row] = await q
    .insert(webhookDeliveries)
    .values({
      organizationId,
      integrationId: original.integrationId,
      eventType: original.eventType,
      orderId: original.orderId,
      payload: original.payload,
      test: original.test,
      redeliveryOf: original.id,
    })
    .returning();
  return row!;
}

/** POST /webhooks/deliveries/:id/redeliver: the new delivery is started like any other. */
export async function redeliver(organizationId: string, publicId: string): Promise<DeliveryJson> {
  const row = await db.transaction(async (tx) => {
    const created = await createRedelivery(organizationId, publicId, tx);
    await recordAudit(tx, {
      organizationId,
      action: "delivery.redelivered",
      target: { type: "delivery", id: toPublicId("delivery", created.redeliveryOf!), label: created.eventType },
      details: { redelivery_id: toPublicId("delivery", created.id) },
    });
    return created;
  });
  await announceDeliveries([row.id]);
  return serializeDelivery(row);
}
