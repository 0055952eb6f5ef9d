import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { webhookDeliveries, webhookIntegrations } from "@/db/schema";
import type { DeliveryState } from "@/inngest/events";
import { STALE_AFTER_SECONDS } from "./attempt";

const UNFINISHED = ["Pending", "InProgress", "Failed"] as const;

/** What announcing each delivery needs (its event id follows its state); deliveries gone since are left out. */
export async function deliveryStates(deliveryIds: string[]): Promise<DeliveryState[]> {
  if (deliveryIds.length === 0) return [];
  const rows = await db
    .select({
      deliveryId: webhookDeliveries.id,
      integrationId: webhookDeliveries.integrationId,
      attemptCount: webhookDeliveries.attemptCount,
      updatedAt: webhookDeliveries.updatedAt,
    })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, deliveryIds));
  const order = new Map(deliveryIds.map((id, i) => [id, i]));
  return rows.sort((a, b) => order.get(a.deliveryId)! - order.get(b.deliveryId)!);
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
        inArray(webhookDeliveries.status, UNFINISHED),
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
 * other instances' running attempts are left alone.
 * On PGlite no name matches (one session, no application_name) and a single process owns the database,
 * so everything InProgress belonged to a previous process and is released.
 */
export async function releaseDeliveriesOfDeadProcesses(): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: sql`case when ${webhookDeliveries.attemptCount} = 0 then 'Pending' else 'Failed' end`, updatedAt: sql`now()` })
    .where(
      and(
        eq(webhookDeliveries.status, "InProgress"),
        sql`not exists (select 1 from pg_stat_activity a where a.application_name = ${webhookDeliveries.claimedBy})`,
      ),
    );
}

/**
 * Every delivery waiting for an attempt, oldest first, of enabled integrations (disabled ones are paused).
 * Claiming is atomic, so one that a live instance is about to run is still run once.
 */
export async function findWaitingDeliveries(): Promise<string[]> {
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookIntegrations, eq(webhookIntegrations.id, webhookDeliveries.integrationId))
    .where(and(inArray(webhookDeliveries.status, ["Pending", "Failed"]), eq(webhookIntegrations.enabled, true)))
    .orderBy(asc(webhookDeliveries.createdAt));
  return rows.map((r) => r.id);
}
