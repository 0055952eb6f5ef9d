import { and, asc, count, desc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import { db, type Queryable } from "@/db/client";
import { webhookAttempts, webhookDeliveries, webhookIntegrations, type DeliveryStatus } from "@/db/schema";
import { notFound } from "@/lib/http/errors";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { STALE_AFTER_SECONDS } from "./attempt";
import { announceDeliveries } from "./outbox";
import type { AttemptJson, DeliveryJson, ListDeliveriesQuery } from "./delivery-schemas";
import { pageMeta, pageOf } from "@/lib/http/pagination";

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
export function deliveriesWhere(organizationId: string, filter: { status?: DeliveryStatus; integrationId?: string }): SQL | undefined {
  const filters = [eq(webhookDeliveries.organizationId, organizationId)];
  if (filter.status) filters.push(eq(webhookDeliveries.status, filter.status));
  if (filter.integrationId) {
    // A malformed or foreign integration id simply matches nothing.
    const integrationId = fromPublicId("integration", filter.integrationId);
    filters.push(integrationId ? eq(webhookDeliveries.integrationId, integrationId) : sql`false`);
  }
  return and(...filters);
}

export async function listDeliveries(organizationId: string, query: ListDeliveriesQuery, q: Queryable = db) {
  const where = deliveriesWhere(organizationId, { status: query.status, integrationId: query.integration_id });
  const { limit, offset } = pageOf(query);
  const [rows, [total]] = await Promise.all([
    q
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
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

/**
 * Unfinished deliveries nobody has touched for a while: their announcement or their run was lost, or they
 * wait behind their integration's concurrency limit. Taken round-robin across integrations (every
 * integration's oldest first, then every second oldest, ...), so a dead receiver's large backlog cannot
 * take the whole batch from another integration's lost delivery. Paused (disabled) integrations are skipped.
 */
export async function findStalledDeliveries(limit = 500): Promise<string[]> {
  const stalled = db
    .select({
      id: webhookDeliveries.id,
      updatedAt: webhookDeliveries.updatedAt,
      turn: sql<number>`row_number() over (partition by ${webhookDeliveries.integrationId} order by ${webhookDeliveries.updatedAt})`.as(
        "turn",
      ),
    })
    .from(webhookDeliveries)
    .innerJoin(webhookIntegrations, eq(webhookIntegrations.id, webhookDeliveries.integrationId))
    .where(
      and(
        inArray(webhookDeliveries.status, ["Pending", "InProgress", "Failed"]),
        lt(webhookDeliveries.updatedAt, sql`now() - make_interval(secs => ${STALE_AFTER_SECONDS})`),
        eq(webhookIntegrations.enabled, true),
      ),
    )
    .as("stalled");
  const rows = await db.select({ id: stalled.id }).from(stalled).orderBy(asc(stalled.turn), asc(stalled.updatedAt)).limit(limit);
  return rows.map((r) => r.id);
}

/**
 * Start-up of a process that runs deliveries in-process: an InProgress delivery whose process has no
 * session left on the database (killed, crashed) is released, so its unrecorded attempt is made again;
 * other instances' running attempts are left alone. Every unfinished delivery (of an enabled integration:
 * disabled ones are paused) is returned for announcement: claiming is atomic, so one that a live instance
 * is about to run is run once.
 * On PGlite no name matches (one session, no application_name) and a single process owns the database,
 * so everything InProgress belonged to a previous process and is released.
 */
export async function releaseUnfinishedDeliveries(): Promise<string[]> {
  await db
    .update(webhookDeliveries)
    .set({ status: sql`case when ${webhookDeliveries.attemptCount} = 0 then 'Pending' else 'Failed' end`, updatedAt: sql`now()` })
    .where(
      and(
        eq(webhookDeliveries.status, "InProgress"),
        sql`not exists (select 1 from pg_stat_activity a where a.application_name = ${webhookDeliveries.claimedBy})`,
      ),
    );
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookIntegrations, eq(webhookIntegrations.id, webhookDeliveries.integrationId))
    .where(and(inArray(webhookDeliveries.status, ["Pending", "Failed"]), eq(webhookIntegrations.enabled, true)))
    .orderBy(asc(webhookDeliveries.createdAt));
  return rows.map((r) => r.id);
}

/** POST /webhooks/deliveries/:id/redeliver: the new delivery is started like any other. */
export async function redeliver(organizationId: string, publicId: string): Promise<DeliveryJson> {
  const row = await createRedelivery(organizationId, publicId);
  await announceDeliveries([row.id]);
  return serializeDelivery(row);
}
