import { and, eq, inArray, sql } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";
import { webhookIntegrations, webhookRecoveries } from "@/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { toPublicId } from "@/lib/ids";
import { auditIntegration, ownIntegration } from "./integrations";
import { announceDeliveries } from "./outbox";

/** Most deliveries one recovery may queue; a larger window is refused so one call stays a bounded transaction. */
export const MAX_RECOVERY = 10_000;

/**
 * Bulk recovery (Svix's "recover failed messages since"): one redelivery of every PermanentlyFailed delivery
 * of the integration created in [since, until) that has no redelivery yet, recorded as one recovery (window,
 * count, who asked) that its redeliveries reference, all in one transaction. The integration's row is locked
 * for the transaction, so of two concurrent calls the second waits and then finds every delivery already
 * redelivered: each failed delivery is queued once however often it is asked for.
 */
export async function recoverFailedDeliveries(
  organizationId: string,
  integrationPublicId: string,
  window: { since: Date; until?: Date },
  createdBy?: string,
): Promise<{ id: string; queued: number }> {
  const until = window.until ?? new Date();
  if (window.since >= until) {
    throw new ApiError("validation_failed", "since must be before until", [{ path: "since", message: "must be before until" }]);
  }
  const { recoveryId, ids } = await db.transaction(async (tx) => {
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
    // The lock keeps other recoveries out, not a single redelivery of one of these: the count is what was inserted.
    const [recovery] = await tx
      .insert(webhookRecoveries)
      .values({ organizationId, integrationId, windowSince: window.since, windowUntil: until, queued: 0, createdBy })
      .returning({ id: webhookRecoveries.id });
    const inserted = rowsOf<{ id: string }>(
      await tx.execute(sql`
        insert into webhook_deliveries (organization_id, integration_id, event_type, order_id, payload, redelivery_of, recovery_id)
        select d.organization_id, d.integration_id, d.event_type, d.order_id, d.payload, d.id, ${recovery!.id}::uuid ${failed}
        order by d.created_at
        returning id`),
    );
    await tx.update(webhookRecoveries).set({ queued: inserted.length }).where(eq(webhookRecoveries.id, recovery!.id));
    // One entry for the whole recovery, with its count, not one per delivery.
    await auditIntegration(tx, "integration.deliveries_recovered", integration, {
      recovery_id: toPublicId("recovery", recovery!.id),
      queued: inserted.length,
      since: window.since.toISOString(),
      until: until.toISOString(),
    });
    return { recoveryId: recovery!.id, ids: inserted.map((row) => row.id) };
  });
  await announceDeliveries(ids);
  return { id: toPublicId("recovery", recoveryId), queued: ids.length };
}

/** Where one recovery stands: of its `queued` redeliveries, how many succeeded, failed for good, or still run. */
export interface RecoveryProgress {
  id: string;
  queued: number;
  done: number;
  failed: number;
  running: number;
  createdAt: string;
}

/**
 * Per integration: its latest recovery that queued anything, with its redeliveries counted by status (a
 * redelivery removed by retention counts in none, so a recovery is finished when none is still running).
 */
export async function latestRecoveries(organizationId: string, integrationIds: string[]): Promise<Map<string, RecoveryProgress>> {
  if (integrationIds.length === 0) return new Map();
  const rows = rowsOf<RecoveryProgress & { integration_id: string; created_at: string }>(
    await db.execute(sql`
      select r.integration_id, r.id, r.queued, r.created_at, p.done, p.failed, p.running
      from (
        select distinct on (integration_id) integration_id, id, queued, created_at
        from ${webhookRecoveries}
        where ${and(eq(webhookRecoveries.organizationId, organizationId), inArray(webhookRecoveries.integrationId, integrationIds))}
          and queued > 0
        order by integration_id, created_at desc, id desc
      ) r
      cross join lateral (
        select count(*) filter (where d.status = 'Success')::int as done,
               count(*) filter (where d.status = 'PermanentlyFailed')::int as failed,
               count(*) filter (where d.status in ('Pending', 'InProgress', 'Failed'))::int as running
        from webhook_deliveries d
        where d.recovery_id = r.id
      ) p`),
  );
  return new Map(
    rows.map((row) => [
      row.integration_id,
      {
        id: toPublicId("recovery", row.id),
        queued: row.queued,
        done: row.done,
        failed: row.failed,
        running: row.running,
        createdAt: new Date(row.created_at).toISOString(),
      },
    ]),
  );
}
