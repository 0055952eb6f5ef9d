import { and, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { db, rowsOf, sessionName } from "@/db/client";
import { webhookAttempts, webhookDeliveries, webhookIntegrations, type DeliveryStatus } from "@/db/schema";
import { toPublicId } from "@/lib/ids";
import { signingSecretsSql } from "./integrations";
import { sendWebhook, type SendOptions, type SendResult } from "./send";
import { checkTarget, TargetRefused } from "./target";
import { webhookSignature } from "./verify";

export const MAX_ATTEMPTS = 5;
/**
 * An InProgress delivery not touched for this long is taken over even though its runner's process is alive:
 * that run was lost (an attempt lasts at most 30 s). Dead processes' deliveries are released at start-up.
 */
export const STALE_AFTER_SECONDS = 120;

export interface AttemptOptions extends SendOptions {
  /** Overrides WEBHOOK_ALLOW_PRIVATE_TARGETS for the delivery-time check of the target. */
  allowPrivateTargets?: boolean;
}

export interface DeliveryProgress {
  status: DeliveryStatus;
  attemptCount: number;
  /** True when no further attempt should be made by this run: finished, gone, paused, or owned by another runner. */
  done: boolean;
  /** When not done and the integration retries on the nominal schedule: the time of the next attempt (ISO). */
  retryAt?: string;
}

/** Nominal wait before the next attempt after `attemptNumber` failures: 5 s doubling, capped at 5 min, ±15 % jitter. */
export function nominalBackoffMs(attemptNumber: number, random: () => number = Math.random): number {
  const base = Math.min(5_000 * 2 ** (attemptNumber - 1), 300_000);
  return Math.round(base * (0.85 + 0.3 * random()));
}

function deliveryHeaders(
  delivery: { id: string; eventType: string; payload: string; redeliveryOf: string | null },
  attempt: number,
  secrets: string[],
) {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-Webhook-Delivery-ID": toPublicId("delivery", delivery.id),
    "X-Webhook-Event-Type": delivery.eventType,
    "X-Webhook-Attempt": String(attempt),
  };
  // A deliberate resend has its own delivery id; this names the one it repeats.
  if (delivery.redeliveryOf) headers["X-Webhook-Redelivery-Of"] = toPublicId("delivery", delivery.redeliveryOf);
  // Integrations that predate signing get neither header; receivers look the delivery id up instead.
  // During a rotation's overlap one signature per valid secret, newest first: `v1=<hex>,v1=<hex>`.
  if (secrets.length) {
    const timestamp = Math.floor(Date.now() / 1000);
    headers["X-Webhook-Timestamp"] = String(timestamp);
    headers["X-Webhook-Signature"] = secrets.map((secret) => webhookSignature(secret, timestamp, delivery.payload)).join(",");
  }
  return headers;
}

function redirectNote(statusCode: number | undefined): string | null {
  return statusCode !== undefined && statusCode >= 300 && statusCode < 400 ? `Redirect (HTTP ${statusCode}) not followed` : null;
}

/**
 * Where a delivery this run may not attempt stands: finished, held by another runner, paused, deleted, or
 * (nominal retry schedule) not due yet, in which case the run is to wait for `retryAt` and try again.
 */
async function unclaimedProgress(deliveryId: string): Promise<DeliveryProgress> {
  const [row] = await db
    .select({
      status: webhookDeliveries.status,
      attemptCount: webhookDeliveries.attemptCount,
      retryAt: sql<string | null>`case when ${webhookIntegrations.enabled} and ${webhookIntegrations.retrySchedule} = 'nominal'
        and ${webhookDeliveries.status} = 'Failed' and ${webhookDeliveries.nextRetryAt} > now() then ${webhookDeliveries.nextRetryAt} end`,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookIntegrations, eq(webhookIntegrations.id, webhookDeliveries.integrationId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (row?.retryAt) return { status: row.status, attemptCount: row.attemptCount, done: false, retryAt: new Date(row.retryAt).toISOString() };
  return { status: row?.status ?? "PermanentlyFailed", attemptCount: row?.attemptCount ?? 0, done: true };
}

/**
 * Takes the delivery for one attempt unless it is finished, another live runner holds it, or its
 * integration is disabled, and reads the integration in the same statement (the embedded database runs
 * one statement at a time). A disabled integration's deliveries are paused, as Svix does, rather than
 * failed: they keep their status and attempts, and go out once it is enabled again.
 */
async function claim(deliveryId: string) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "InProgress", claimedBy: sessionName(), updatedAt: sql`now()` })
    .from(webhookIntegrations)
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookIntegrations.id, webhookDeliveries.integrationId),
        eq(webhookIntegrations.organizationId, webhookDeliveries.organizationId),
        eq(webhookIntegrations.enabled, true),
        lt(webhookDeliveries.attemptCount, MAX_ATTEMPTS),
        or(
          eq(webhookIntegrations.retrySchedule, "immediate"),
          isNull(webhookDeliveries.nextRetryAt),
          lte(webhookDeliveries.nextRetryAt, sql`now()`),
        ),
        or(
          inArray(webhookDeliveries.status, ["Pending", "Failed"]),
          and(
            eq(webhookDeliveries.status, "InProgress"),
            lt(webhookDeliveries.updatedAt, sql`now() - make_interval(secs => ${STALE_AFTER_SECONDS})`),
          ),
        ),
      ),
    )
    .returning({
      id: webhookDeliveries.id,
      eventType: webhookDeliveries.eventType,
      payload: webhookDeliveries.payload,
      redeliveryOf: webhookDeliveries.redeliveryOf,
      attemptCount: webhookDeliveries.attemptCount,
      url: webhookIntegrations.url,
      signingSecrets: signingSecretsSql(),
      retrySchedule: webhookIntegrations.retrySchedule,
    });
  return row;
}

/**
 * Settles the delivery and inserts its attempt record in one statement (atomic, one round trip).
 * Returns the next_retry_at it set (null when finished), or false when the delivery was deleted (with its
 * organization or integration) while the request ran.
 */
async function record(deliveryId: string, attemptNumber: number, status: DeliveryStatus, result: SendResult): Promise<string | null | false> {
  const now = new Date();
  const nextRetryAt = status === "Failed" ? new Date(now.getTime() + nominalBackoffMs(attemptNumber)).toISOString() : null;
  const { request } = result;
  const rows = rowsOf(
    await db.execute(sql`
      with settled as (
        update ${webhookDeliveries}
        set status = ${status}, attempt_count = ${attemptNumber}, last_attempt_at = ${now.toISOString()}::timestamptz,
            next_retry_at = ${nextRetryAt}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
        where id = ${deliveryId}
        returning id
      )
      insert into ${webhookAttempts} (delivery_id, attempt_number, request_url, request_method, request_headers, started_at,
                                      status_code, response_headers, response_body, duration_ms, error_message, created_at)
      select id, ${attemptNumber}::int, ${request?.url ?? null}::text, ${request?.method ?? null}::text,
             ${request ? JSON.stringify(request.headers) : null}::jsonb, ${request?.startedAt.toISOString() ?? null}::timestamptz,
             ${result.statusCode ?? null}::int, ${result.responseHeaders ? JSON.stringify(result.responseHeaders) : null}::jsonb,
             ${result.responseBody ?? null}::text, ${result.durationMs}::int,
             ${result.errorMessage ?? redirectNote(result.statusCode)}::text, ${now.toISOString()}::timestamptz
      from settled
      returning id`),
  );
  return rows.length > 0 && nextRetryAt;
}

/**
 * One attempt of a delivery, all state in its row: claim it (InProgress), POST the stored payload,
 * record the attempt, and settle the status (Success, Failed with a nominal next_retry_at, or
 * PermanentlyFailed after the 5th failure). Safe to call again after a crash: it continues from attempt_count.
 * On the nominal retry schedule a failed delivery is not attempted before its next_retry_at.
 */
export async function attemptDelivery(deliveryId: string, options: AttemptOptions = {}): Promise<DeliveryProgress> {
  const { allowPrivateTargets, ...sendOptions } = options;
  const delivery = await claim(deliveryId);
  if (!delivery) return unclaimedProgress(deliveryId);
  const attemptNumber = delivery.attemptCount + 1;

  let result: SendResult;
  try {
    const target = await checkTarget(delivery.url, allowPrivateTargets);
    result = await sendWebhook(target, delivery.payload, deliveryHeaders(delivery, attemptNumber, delivery.signingSecrets), sendOptions);
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error;
    result = { durationMs: 0, errorMessage: `Target refused: ${error.message}` };
  }

  const succeeded = result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300 && !result.errorMessage;
  const status: DeliveryStatus = succeeded ? "Success" : attemptNumber >= MAX_ATTEMPTS ? "PermanentlyFailed" : "Failed";
  const nextRetryAt = await record(deliveryId, attemptNumber, status, result);
  if (nextRetryAt === false) return { status: "PermanentlyFailed", attemptCount: attemptNumber, done: true };
  const progress = { status, attemptCount: attemptNumber, done: status !== "Failed" };
  return nextRetryAt && delivery.retrySchedule === "nominal" ? { ...progress, retryAt: nextRetryAt } : progress;
}
