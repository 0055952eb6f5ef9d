import { and, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";
import { webhookDeliveries, webhookIntegrations } from "@/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { auditIntegration, ownIntegration } from "./integrations";
import { announceDeliveries } from "./outbox";

/** Most deliveries one recovery may queue; a larger window is refused so one call stays a bounded transaction. */
export const MAX_RECOVERY = 10_000;

/**
 * Bulk recovery (Svix's "recover failed messages since"): one redelivery of every PermanentlyFailed delivery
 * of the integration created in [since, until) that has no redelivery yet. The integration's row is locked
 * for the transaction, so of two concurrent calls the second waits and then finds every delivery already
 * redelivered: each failed delivery is queued once however often it is asked for.
 */
export async function recoverFailedDeliveries(
  organizationId: string,
  integrationPublicId: string,
  window: { since: Date; until?: Date },
): Promise<{ queued: number }> {
  const until = window.until ?? new Date();
  if (window.since >= until) {
    throw new ApiError("validation_failed", "since must be before until", [{ path: "since", message: "must be before until" }]);
  }
  const ids = await db.transaction(async (tx) => {
    const [integration] = await tx
      .select()
      .from(webhookIntegrations)
      .where(ownIntegration(organizationId, integrationPublicId))
      .for("update");
    if (!integration) throw notFound("Integration");
    const integrationId = integration.id;
    const failed = sql`
      from webhook_deliveries d
      where d.organization_id = ${organizationId} and d.integration_id = ${integrationId}
        and d.status = 'PermanentlyFailed'
        and d.created_at >= ${window.since.toISOString()}::timestamptz and d.created_at < ${until.toISOString()}::timestamptz
        and not exists (select 1 from webhook_deliveries r where r.redelivery_of = d.id)`;
    const [{ count } = { count: 0 }] = rowsOf<{ count: number }>(await tx.execute(sql`select count(*)::int as count ${failed}`));
    if (count > MAX_RECOVERY) {
      throw new ApiError("validation_failed", `${count} failed deliveries are in this window; at most ${MAX_RECOVERY} per call: narrow the window`, [
        { path: "since", message: `${count} deliveries match; at most ${MAX_RECOVERY}` },
      ]);
    }
    const inserted = rowsOf<{ id: string }>(
      await tx.execute(sql`
        insert into webhook_deliveries (organization_id, integration_id, event_type, order_id, payload, redelivery_of)
        select d.organization_id, d.integration_id, d.event_type, d.order_id, d.payload, d.id ${failed}
        order by d.created_at
        returning id`),
    );
    // One entry for the whole recovery, with its count, not one per delivery.
    await auditIntegration(tx, "integration.deliveries_recovered", integration, {
      queued: inserted.length,
      since: window.since.toISOString(),
      until: until.toISOString(),
    });
    return inserted.map((row) => row.id);
  });
  await announceDeliveries(ids);
  return { queued: ids.length };
}

/** Per integration: its redeliveries of the last 24 hours, unfinished (queued) and finished (done). */
export async function redeliveryProgress(organizationId: string, integrationIds: string[]) {
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

