import { and, asc, eq, sql } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";
import { webhookDeliveries, webhookIntegrations } from "@/db/schema";

/** Failed deliveries in a row, besides the span, before an integration is disabled (as Stripe and Svix do). */
export const AUTO_DISABLE_MIN_FAILURES = 20;

/**
 * Disables every enabled integration whose deliveries have all ended PermanentlyFailed for `afterMs` and at
 * least AUTO_DISABLE_MIN_FAILURES of them in a row: counted since its last success or its last change (so
 * re-enabling or fixing the URL starts the count afresh), the first of them finished at least `afterMs`
 * ago. Its deliveries pause, as for any disabled integration. Returns the ids disabled.
 */
export async function disableFailingIntegrations(afterMs: number): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      with streaks as (
        select i.id, count(d.id) as failures, min(d.last_attempt_at) as since
        from ${webhookIntegrations} i
        join ${webhookDeliveries} d on d.organization_id = i.organization_id and d.integration_id = i.id
        where i.enabled and d.status = 'PermanentlyFailed'
          and d.last_attempt_at > greatest(i.updated_at, (
            select max(s.last_attempt_at) from ${webhookDeliveries} s
            where s.organization_id = i.organization_id and s.integration_id = i.id and s.status = 'Success'))
        group by i.id
      )
      update ${webhookIntegrations} i
      set enabled = false, disabled_reason = 'failing', disabled_at = now(), updated_at = now()
      from streaks
      where i.id = streaks.id and i.enabled and streaks.failures >= ${AUTO_DISABLE_MIN_FAILURES}
        and streaks.since <= now() - make_interval(secs => ${afterMs / 1000})
      returning i.id`),
  );
  return rows.map((r) => r.id);
}

/** The organization's integrations that were disabled automatically, for the dashboard's banner. */
export async function listAutoDisabledIntegrations(organizationId: string): Promise<{ id: string; url: string; disabledAt: Date | null }[]> {
  return db
    .select({ id: webhookIntegrations.id, url: webhookIntegrations.url, disabledAt: webhookIntegrations.disabledAt })
    .from(webhookIntegrations)
    .where(and(eq(webhookIntegrations.organizationId, organizationId), eq(webhookIntegrations.disabledReason, "failing")))
    .orderBy(asc(webhookIntegrations.disabledAt));
}
