import { and, count, eq, isNull, sql, type SQL } from "drizzle-orm";
import { db, type Queryable } from "@/db/client";
import { RETRY_SCHEDULES, webhookAttempts, webhookDeliveries, webhookIntegrations, WEBHOOK_EVENT_TYPES, type DisabledReason, type RetrySchedule, type WebhookEventType } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import { randomToken } from "@/lib/auth/secrets";
import { ApiError, notFound } from "@/lib/http/errors";
import { NEWEST_FIRST, orderThenId, pageOf, type ListOrder, type PaginationQuery, type SortColumn } from "@/lib/http/pagination";
import { fromPublicId, toPublicId } from "@/lib/ids";
import type { AuditAction } from "@/lib/audit/actions";
import { checkTarget, TargetRefused } from "./target";

export interface IntegrationJson {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  /** False for an integration that predates signing (its deliveries carry no signature until its next update). */
  signed: boolean;
  /** `immediate`: failed deliveries are re-queued at once; `nominal`: each retry waits for its next_retry_at. */
  retry_schedule: RetrySchedule;
  /** Present when the system disabled the integration: `failing` after its deliveries kept failing. */
  disabled_reason?: DisabledReason;
  disabled_at?: string;
  /** Present while its attempts fail: since the first failed attempt after its last success. */
  failing_since?: string;
  signing_secret?: string;
  /** During a rotation's overlap: when the previous secret stops signing deliveries. */
  previous_secret_expires_at?: string;
  deleted_at?: string;
  created_at: string;
  updated_at: string;
}

type IntegrationRow = typeof webhookIntegrations.$inferSelect;

export function newSigningSecret(): string {
  return `whsec_${randomToken(32)}`;
}

/** The previous secret's expiry while it still signs deliveries; undefined outside an overlap. */
function overlapEnd(row: IntegrationRow): Date | undefined {
  const end = row.previousSecretExpiresAt;
  return row.previousSigningSecret && end && end.getTime() > Date.now() ? end : undefined;
}

/** What the integrations API answers outside create, rotate and the secret endpoint: everything but the secret. */
export function withoutSecret({ signing_secret: _secret, ...integration }: IntegrationJson): Omit<IntegrationJson, "signing_secret"> {
  return integration;
}

export function serializeIntegration(row: IntegrationRow): IntegrationJson {
  return {
    id: toPublicId("integration", row.id),
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    signed: row.signingSecret !== null,
    retry_schedule: row.retrySchedule,
    ...(row.disabledReason ? { disabled_reason: row.disabledReason } : {}),
    ...(row.disabledAt ? { disabled_at: row.disabledAt.toISOString() } : {}),
    ...(row.failingSince ? { failing_since: row.failingSince.toISOString() } : {}),
    ...(row.signingSecret ? { signing_secret: row.signingSecret } : {}),
    ...(row.deletedAt ? { deleted_at: row.deletedAt.toISOString() } : {}),
    ...(overlapEnd(row) ? { previous_secret_expires_at: overlapEnd(row)!.toISOString() } : {}),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function validUrl(url: string): Promise<string> {
  try {
    await checkTarget(url);
  } catch (error) {
    if (error instanceof TargetRefused) {
      throw new ApiError("validation_failed", "Invalid webhook URL", [{ path: "url", message: error.message }]);
    }
    throw error;
  }
  return new URL(url).toString();
}

function validRetrySchedule(schedule: string): RetrySchedule {
  if (!(RETRY_SCHEDULES as readonly string[]).includes(schedule)) {
    throw new ApiError("validation_failed", "Invalid retry schedule", [{ path: "retry_schedule", message: `must be one of ${RETRY_SCHEDULES.join(", ")}` }]);
  }
  return schedule as RetrySchedule;
}

function validEvents(events: readonly string[]): WebhookEventType[] {
  const unknown = events.filter((e) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
  if (events.length === 0 || unknown.length) {
    throw new ApiError("validation_failed", "Invalid webhook events", [
      { path: "events", message: `must be a non-empty list of ${WEBHOOK_EVENT_TYPES.join(", ")}` },
    ]);
  }
  return [...new Set(events)] as WebhookEventType[];
}

/** An integration's URL as the audit log names it: without credentials or query, which may hold secrets. */
function urlLabel(url: string): string {
  const parsed = new URL(url);
  return parsed.origin + parsed.pathname;
}

/** The audit entry of a change to an integration, in the change's transaction; its target is the integration. */
export function auditIntegration(q: Queryable, action: AuditAction, row: IntegrationRow, details: Record<string, unknown> = {}) {
  return recordAudit(q, {
    organizationId: row.organizationId,
    action,
    target: { type: "integration", id: toPublicId("integration", row.id), label: urlLabel(row.url) },
    details,
  });
}

/** `signed: false` makes an integration of the kind that predates signing (no secret until its next update). */
export async function createIntegration(
  input: { organizationId: string; url: string; events?: WebhookEventType[]; description?: string; signed?: boolean; retrySchedule?: string },
  q: Queryable = db,
): Promise<IntegrationJson> {
  const url = await validUrl(input.url);
  const events = validEvents(input.events ?? ["OrderCompleted"]);
  const retrySchedule = validRetrySchedule(input.retrySchedule ?? "immediate");
  const row = await q.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(webhookIntegrations)
      .values({
        organizationId: input.organizationId,
        url,
        events,
        description: input.description?.trim() ?? "",
        signingSecret: input.signed === false ? null : newSigningSecret(),
        retrySchedule,
      })
      .returning();
    await auditIntegration(tx, "integration.created", inserted!, { events, retry_schedule: retrySchedule });
    return inserted!;
  });
  return serializeIntegration(row);
}

const SORT_COLUMNS = {
  created: webhookIntegrations.createdAt,
  url: sql`lower(${webhookIntegrations.url})`,
} satisfies Record<string, SortColumn>;
export type IntegrationSort = keyof typeof SORT_COLUMNS;

/** Every integration, newest first; the dashboard's table asks for one `page` in its own `sort` (and counts them with countIntegrations). */
export async function listIntegrations(
  organizationId: string,
  q: Queryable = db,
  options: { page?: PaginationQuery; sort?: ListOrder<IntegrationSort> } = {},
): Promise<IntegrationJson[]> {
  const { sort = NEWEST_FIRST, page } = options;
  const query = q
    .select()
    .from(webhookIntegrations)
    .where(liveIntegrations(organizationId))
    .orderBy(...orderThenId(SORT_COLUMNS[sort.sort], webhookIntegrations.id, sort.order))
    .$dynamic();
  const rows = page ? await query.limit(pageOf(page).limit).offset(pageOf(page).offset) : await query;
  return rows.map(serializeIntegration);
}

export async function countIntegrations(organizationId: string, q: Queryable = db): Promise<number> {
  const [row] = await q.select({ value: count() }).from(webhookIntegrations).where(liveIntegrations(organizationId));
  return row?.value ?? 0;
}

/** The organization's integrations that are not deleted. */
function liveIntegrations(organizationId: string): SQL {
  return and(eq(webhookIntegrations.organizationId, organizationId), isNull(webhookIntegrations.deletedAt))!;
}

/** One live (not deleted) integration of the organization, by public id; malformed ids match nothing. */
export function ownIntegration(organizationId: string, publicId: string, includeDeleted = false): SQL {
  const id = fromPublicId("integration", publicId);
  if (!id) throw notFound("Integration");
  const live = includeDeleted ? undefined : isNull(webhookIntegrations.deletedAt);
  return and(eq(webhookIntegrations.organizationId, organizationId), eq(webhookIntegrations.id, id), live)!;
}

/** `includeDeleted`: a deleted integration's deliveries stay readable, and name it (with its deleted_at). */
export async function getIntegration(
  organizationId: string,
  publicId: string,
  options: { includeDeleted?: boolean } = {},
  q: Queryable = db,
): Promise<IntegrationJson> {
  const [row] = await q
    .select()
    .from(webhookIntegrations)
    .where(ownIntegration(organizationId, publicId, options.includeDeleted))
    .limit(1);
  if (!row) throw notFound("Integration");
  return serializeIntegration(row);
}

/**
 * Any update also gives an unsigned (pre-signing) integration its first secret. Enabling or disabling by
 * hand clears an automatic disable's reason.
 */
export async function updateIntegration(
  organizationId: string,
  publicId: string,
  changes: { url?: string; events?: WebhookEventType[]; description?: string; enabled?: boolean; retrySchedule?: string },
  q: Queryable = db,
): Promise<IntegrationJson> {
  const url = changes.url === undefined ? undefined : await validUrl(changes.url);
  const events = changes.events === undefined ? undefined : validEvents(changes.events);
  const retrySchedule = changes.retrySchedule === undefined ? undefined : validRetrySchedule(changes.retrySchedule);
  const row = await q.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhookIntegrations)
      .set({
        ...(url === undefined ? {} : { url }),
        ...(events === undefined ? {} : { events }),
        ...(changes.description === undefined ? {} : { description: changes.description.trim() }),
        ...(changes.enabled === undefined ? {} : { enabled: changes.enabled, disabledReason: null, disabledAt: null }),
        ...(retrySchedule === undefined ? {} : { retrySchedule }),
        signingSecret: sql`coalesce(${webhookIntegrations.signingSecret}, ${newSigningSecret()})`,
        updatedAt: new Date(),
      })
      .where(ownIntegration(organizationId, publicId))
      .returning();
    if (!updated) throw notFound("Integration");
    // Which fields were sent, not their values: a URL may carry credentials.
    const changed = Object.entries({ url, events, description: changes.description, retry_schedule: retrySchedule })
      .filter(([, value]) => value !== undefined)
      .map(([field]) => field);
    if (changed.length) await auditIntegration(tx, "integration.updated", updated, { changed, ...(events ? { events } : {}) });
    if (changes.enabled !== undefined) await auditIntegration(tx, changes.enabled ? "integration.enabled" : "integration.disabled", updated);
    return updated;
  });
  return serializeIntegration(row);
}

/** Longest overlap of a rotation: the previous secret keeps signing for at most 7 days. */
export const MAX_ROTATION_OVERLAP_SECONDS = 7 * 24 * 3600;

/**
 * A new secret signs from the next attempt on. With `expirePreviousInSeconds` > 0 the replaced secret keeps
 * signing too (second signature) until then, so receivers can switch without rejecting traffic; 0 ends it now.
 */
export async function rotateIntegrationSecret(
  organizationId: string,
  publicId: string,
  expirePreviousInSeconds = 0,
  q: Queryable = db,
): Promise<IntegrationJson> {
  if (!Number.isInteger(expirePreviousInSeconds) || expirePreviousInSeconds < 0 || expirePreviousInSeconds > MAX_ROTATION_OVERLAP_SECONDS) {
    throw new ApiError("validation_failed", "Invalid overlap", [
      { path: "expire_previous_in", message: `must be a whole number of seconds from 0 to ${MAX_ROTATION_OVERLAP_SECONDS}` },
    ]);
  }
  const overlap = expirePreviousInSeconds > 0;
  const row = await q.transaction(async (tx) => {
    const [rotated] = await tx
      .update(webhookIntegrations)
      .set({
        signingSecret: newSigningSecret(),
        previousSigningSecret: overlap ? sql`${webhookIntegrations.signingSecret}` : null,
        previousSecretExpiresAt: overlap ? sql`now() + make_interval(secs => ${expirePreviousInSeconds})` : null,
        updatedAt: new Date(),
      })
      .where(ownIntegration(organizationId, publicId))
      .returning();
    if (!rotated) throw notFound("Integration");
    await auditIntegration(tx, "integration.secret_rotated", rotated, { expire_previous_in: expirePreviousInSeconds });
    return rotated;
  });
  return serializeIntegration(row);
}

/** The secrets that sign a delivery now, newest first: the current one, then a previous one still in its overlap. */
export function signingSecretsSql() {
  return sql<string[]>`array_remove(array[${webhookIntegrations.signingSecret},
    case when ${webhookIntegrations.previousSecretExpiresAt} > now() then ${webhookIntegrations.previousSigningSecret} end], null)`;
}

export const INTEGRATION_DELETED = "integration deleted";

/**
 * Soft delete: the integration disappears from every integration query and is disabled, so no further
 * attempt is claimed; its unfinished deliveries end PermanentlyFailed with a final attempt record saying
 * why (no request was sent). Finished deliveries and all attempts stay readable.
 */
export async function deleteIntegration(organizationId: string, publicId: string): Promise<void> {
  const where = ownIntegration(organizationId, publicId);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookIntegrations)
      .set({ deletedAt: sql`now()`, enabled: false, updatedAt: sql`now()` })
      .where(where)
      .returning();
    if (!row) throw notFound("Integration");
    await auditIntegration(tx, "integration.deleted", row);
    await tx.execute(sql`
      with ended as (
        update ${webhookDeliveries}
        set status = 'PermanentlyFailed', attempt_count = attempt_count + 1, next_retry_at = null,
            last_attempt_at = now(), updated_at = now()
        where organization_id = ${organizationId} and integration_id = ${row.id}
          and status in ('Pending', 'InProgress', 'Failed')
        returning id, attempt_count
      )
      insert into ${webhookAttempts} (delivery_id, attempt_number, duration_ms, error_message)
      select id, attempt_count, 0, ${INTEGRATION_DELETED} from ended`);
  });
}

/** GET /webhooks/integrations/:id/secret: the current secret, and the previous one during an overlap. */
export async function getIntegrationSecret(
  organizationId: string,
  publicId: string,
  q: Queryable = db,
): Promise<{ signing_secret: string; previous_signing_secret?: string; previous_secret_expires_at?: string }> {
  const [row] = await q.select().from(webhookIntegrations).where(ownIntegration(organizationId, publicId)).limit(1);
  if (!row) throw notFound("Integration");
  if (!row.signingSecret) throw new ApiError("conflict", "This integration is unsigned; update it to give it a secret");
  const end = overlapEnd(row);
  // Only that it was shown, never the secret itself.
  await auditIntegration(q, "integration.secret_revealed", row, { previous_included: Boolean(end) });
  return {
    signing_secret: row.signingSecret,
    ...(end ? { previous_signing_secret: row.previousSigningSecret!, previous_secret_expires_at: end.toISOString() } : {}),
  };
}
