import { and, asc, count, eq, sql, type SQL } from "drizzle-orm";
import { db, type Queryable } from "@/db/client";
import { DELIVERY_STATUSES, webhookAttempts, webhookDeliveries, type DeliveryStatus } from "@/db/schema";
import { notFound } from "@/lib/http/errors";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { announceDeliveries } from "./outbox";
import type { AttemptJson, DeliveryJson, ListDeliveriesQuery } from "./delivery-schemas";
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
    ...(row.redeliveryOf ? { redelivery_of: toPublicId("delivery", row.redeliveryOf) } : {}),
  };
}

function serializeAttempt(row: AttemptRow): AttemptJson {
  return {
    attempt_number: row.attemptNumber,
    ...(row.statusCode !== null ? { status_code: row.statusCode } : {}),
    ...(row.responseBody !== null ? { response_body: row.responseBody } : {}),
    duration_ms: row.durationMs,
    ...(row.errorMessage !== null ? { error_message: row.errorMessage } : {}),
    created_at: row.createdAt.toISOString(),
  };
}

/** The organization's deliveries, optionally of one status and one integration (public id), as a WHERE. */
function deliveriesWhere(organizationId: string, filter: { status?: DeliveryStatus; integrationId?: string }): SQL | undefined {
  const filters = [eq(webhookDeliveries.organizationId, organizationId)];
  if (filter.status) filters.push(eq(webhookDeliveries.status, filter.status));
  if (filter.integrationId) {
    // A malformed or foreign integration id simply matches nothing.
    const integrationId = fromPublicId("integration", filter.integrationId);
    filters.push(integrationId ? eq(webhookDeliveries.integrationId, integrationId) : sql`false`);
  }
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
  const where = deliveriesWhere(organizationId, { status: query.status, integrationId: query.integration_id });
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

export async function getDelivery(organizationId: string, publicId: string, q: Queryable = db): Promise<DeliveryJson> {
  return serializeDelivery(await findDelivery(organizationId, publicId, q));
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
      redeliveryOf: original.id,
    })
    .returning();
  return row!;
}

/** POST /webhooks/deliveries/:id/redeliver: the new delivery is started like any other. */
export async function redeliver(organizationId: string, publicId: string): Promise<DeliveryJson> {
  const row = await createRedelivery(organizationId, publicId);
  await announceDeliveries([row.id]);
  return serializeDelivery(row);
}
