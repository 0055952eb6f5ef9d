import { and, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { db, preparedPerHandle, rowsOf, sessionName, statementWithGenericPlan } from "@/db/client";
import { commitWithoutWaiting } from "@/db/async-commit";
import { inUuids, uuidArray } from "@/db/uuid-list";
import { webhookAttempts, webhookDeliveries, webhookIntegrations, type DeliveryStatus } from "@/db/schema";
import { toPublicId } from "@/lib/ids";
import { noteIntegrationHealth } from "./failing-integrations";
import { signingSecretsSql } from "./integrations";
import { sendWebhook, type SendOptions, type SendResult } from "./send";
import { statementBatcher } from "./statement-batcher";
import { checkTarget, TargetRefused } from "./target";
import { webhookSignature } from "./verify";

export const MAX_ATTEMPTS = 5;
/**
 * An InProgress delivery not touched for this long is taken over even though its runner's process is alive:
 * that run was lost (an attempt lasts at most 30 s). Dead processes' deliveries are released at start-up.
 */
export const STALE_AFTER_SECONDS = 120;

// Claims and records of up to this many runs per statement, two statements of each kind at a time.
const BATCH = { maxBatch: 64, inFlight: 2 };

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
 * Takes deliveries for one attempt each unless finished, held by another live runner, or their integration is
 * disabled, and reads the integration in the same statement (the embedded database runs one statement at a
 * time). A disabled integration's deliveries are paused, as Svix does, rather than failed: they keep their
 * status and attempts, and go out once it is enabled again. One statement for the claims of many runs, built once
 * (preparedPerHandle): with deliveries arriving one by one, building it per claim was most of drizzle's share of the
 * delivery worker's CPU.
 */
const preparedClaim = preparedPerHandle((database) =>
  database
    .update(webhookDeliveries)
    .set({ status: "InProgress", claimedBy: sql`${sql.placeholder("claimedBy")}`, updatedAt: sql`now()` })
    .from(webhookIntegrations)
    .where(
      and(
        inUuids(webhookDeliveries.id, sql.placeholder("ids")),
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
        commitWithoutWaiting,
      ),
    )
    .returning({
      id: webhookDeliveries.id,
      integrationId: webhookDeliveries.integrationId,
      eventType: webhookDeliveries.eventType,
      payload: webhookDeliveries.payload,
      redeliveryOf: webhookDeliveries.redeliveryOf,
      attemptCount: webhookDeliveries.attemptCount,
      url: webhookIntegrations.url,
      signingSecrets: signingSecretsSql(),
      retrySchedule: webhookIntegrations.retrySchedule,
    })
    .prepare("claim_deliveries"),
);

async function claimAll(deliveryIds: string[]) {
  const rows = await preparedClaim().execute({ ids: uuidArray(deliveryIds), claimedBy: sessionName() });
  const claimed = new Map(rows.map((row) => [row.id, row]));
  // A delivery asked for twice in one statement is claimed once, as by two statements one after the other.
  return deliveryIds.map((id) => {
    const row = claimed.get(id);
    claimed.delete(id);
    return row;
  });
}

/** A run's claim, sent with the other runs' claims of the moment (see statementBatcher). */
const claim = statementBatcher(claimAll, BATCH);

interface Settlement {
  deliveryId: string;
  attemptNumber: number;
  status: DeliveryStatus;
  result: SendResult;
}

/**
 * The statement of recordAll: settles deliveries, inserts their attempt records and notes each integration's health
 * (`failing_since`: set when its attempts of the batch all failed, cleared when one succeeded), one statement for all
 * (atomic, one round trip), the rows sent as one JSON parameter; rendered once, planned once per session. The ids also
 * as an array, so the planner finds the rows by primary key (it cannot estimate the JSON's rows).
 */
const settleAndRecord = statementWithGenericPlan(
  () => sql`
    with input as (
      select * from jsonb_to_recordset(${sql.placeholder("rows")}::jsonb) as x(
        delivery_id uuid, attempt_number int, status text, next_retry_at timestamptz, request_url text, request_method text,
        request_headers jsonb, started_at timestamptz, status_code int, response_headers jsonb, response_body text,
        duration_ms int, error_message text)
    ), settled as (
      update ${webhookDeliveries} d
      set status = input.status, attempt_count = input.attempt_number, last_attempt_at = ${sql.placeholder("now")}::timestamptz,
          next_retry_at = input.next_retry_at, updated_at = ${sql.placeholder("now")}::timestamptz
      from input
      where d.id = input.delivery_id and d.id = any(${sql.placeholder("ids")}::uuid[]) and ${commitWithoutWaiting}
      returning d.id, d.integration_id, d.status
    ), outcomes as (
      select integration_id, bool_or(status = 'Success') as succeeded from settled group by integration_id
    ), health as (
      -- Written only when an integration's health changes, so a steady receiver never makes its row a hot one.
      update ${webhookIntegrations} w
      set failing_since = case when outcomes.succeeded then null else ${sql.placeholder("now")}::timestamptz end
      from outcomes
      where w.id = outcomes.integration_id and (w.failing_since is null) = not outcomes.succeeded
    )
    insert into ${webhookAttempts} (delivery_id, attempt_number, request_url, request_method, request_headers, started_at,
                                    status_code, response_headers, response_body, duration_ms, error_message, created_at)
    select input.delivery_id, input.attempt_number, input.request_url, input.request_method, input.request_headers, input.started_at,
           input.status_code, input.response_headers, input.response_body, input.duration_ms, input.error_message,
           ${sql.placeholder("now")}::timestamptz
    from input join settled on settled.id = input.delivery_id
    returning delivery_id`,
);

/**
 * Settles deliveries and records their attempts (settleAndRecord). For each: the next_retry_at it set (null when
 * finished), or false when the delivery was deleted (with its organization or integration) while the request ran.
 */
async function recordAll(settlements: Settlement[]): Promise<(string | null | false)[]> {
  const now = new Date().toISOString();
  const rows = settlements.map(({ deliveryId, attemptNumber, status, result }) => {
    const { request } = result;
    return {
      delivery_id: deliveryId,
      attempt_number: attemptNumber,
      status,
      next_retry_at: status === "Failed" ? new Date(Date.now() + nominalBackoffMs(attemptNumber)).toISOString() : null,
      request_url: request?.url ?? null,
      request_method: request?.method ?? null,
      request_headers: request?.headers ?? null,
      started_at: request?.startedAt.toISOString() ?? null,
      status_code: result.statusCode ?? null,
      response_headers: result.responseHeaders ?? null,
      response_body: result.responseBody ?? null,
      duration_ms: result.durationMs,
      error_message: result.errorMessage ?? redirectNote(result.statusCode),
    };
  });
  const recorded = rowsOf<{ delivery_id: string }>(
    await settleAndRecord({ rows: JSON.stringify(rows), now, ids: uuidArray(rows.map((row) => row.delivery_id)) }),
  );
  const kept = new Set(recorded.map((row) => row.delivery_id));
  return rows.map((row) => kept.has(row.delivery_id) && row.next_retry_at);
}

/** A run's attempt record, sent with the other runs' records of the moment (see statementBatcher). */
const recordBatched = statementBatcher(recordAll, BATCH);

function record(deliveryId: string, attemptNumber: number, status: DeliveryStatus, result: SendResult): Promise<string | null | false> {
  return recordBatched({ deliveryId, attemptNumber, status, result });
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
  noteIntegrationHealth(delivery.integrationId, succeeded);
  if (nextRetryAt === false) return { status: "PermanentlyFailed", attemptCount: attemptNumber, done: true };
  const progress = { status, attemptCount: attemptNumber, done: status !== "Failed" };
  return nextRetryAt && delivery.retrySchedule === "nominal" ? { ...progress, retryAt: nextRetryAt } : progress;
}
