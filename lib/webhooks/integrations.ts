import { and, count, eq, sql } from "drizzle-orm";
import { db, type Queryable } from "@/db/client";
import { RETRY_SCHEDULES, webhookIntegrations, WEBHOOK_EVENT_TYPES, type DisabledReason, type RetrySchedule, type WebhookEventType } from "@/db/schema";
import { randomToken } from "@/lib/auth/secrets";
import { ApiError, notFound } from "@/lib/http/errors";
import { NEWEST_FIRST, orderThenId, pageOf, type ListOrder, type PaginationQuery, type SortColumn } from "@/lib/http/pagination";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { checkTarget, TargetRefused } from "./target";

export interface IntegrationJson {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  /** `immediate`: failed deliveries are re-queued at once; `nominal`: each retry waits for its next_retry_at. */
  retry_schedule: RetrySchedule;
  /** Present when the system disabled the integration: `failing` after its deliveries kept failing. */
  disabled_reason?: DisabledReason;
  disabled_at?: string;
  signing_secret?: string;
  created_at: string;
  updated_at: string;
}

type IntegrationRow = typeof webhookIntegrations.$inferSelect;

export function newSigningSecret(): string {
  return `whsec_${randomToken(32)}`;
}

export function serializeIntegration(row: IntegrationRow): IntegrationJson {
  return {
    id: toPublicId("integration", row.id),
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    retry_schedule: row.retrySchedule,
    ...(row.disabledReason ? { disabled_reason: row.disabledReason } : {}),
    ...(row.disabledAt ? { disabled_at: row.disabledAt.toISOString() } : {}),
    ...(row.signingSecret ? { signing_secret: row.signingSecret } : {}),
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

/** `signed: false` makes an integration of the kind that predates signing (no secret until its next update). */
export async function createIntegration(
  input: { organizationId: string; url: string; events?: WebhookEventType[]; signed?: boolean; retrySchedule?: string },
  q: Queryable = db,
): Promise<IntegrationJson> {
  const url = await validUrl(input.url);
  const events = validEvents(input.events ?? ["OrderCompleted"]);
  const [row] = await q
    .insert(webhookIntegrations)
    .values({
      organizationId: input.organizationId,
      url,
      events,
      signingSecret: input.signed === false ? null : newSigningSecret(),
      retrySchedule: validRetrySchedule(input.retrySchedule ?? "immediate"),
    })
    .returning();
  return serializeIntegration(row!);
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
    .where(eq(webhookIntegrations.organizationId, organizationId))
    .orderBy(...orderThenId(SORT_COLUMNS[sort.sort], webhookIntegrations.id, sort.order))
    .$dynamic();
  const rows = page ? await query.limit(pageOf(page).limit).offset(pageOf(page).offset) : await query;
  return rows.map(serializeIntegration);
}

export async function countIntegrations(organizationId: string, q: Queryable = db): Promise<number> {
  const [row] = await q.select({ value: count() }).from(webhookIntegrations).where(eq(webhookIntegrations.organizationId, organizationId));
  return row?.value ?? 0;
}

function integrationUuid(publicId: string): string {
  const id = fromPublicId("integration", publicId);
  if (!id) throw notFound("Integration");
  return id;
}

export async function getIntegration(organizationId: string, publicId: string, q: Queryable = db): Promise<IntegrationJson> {
  const [row] = await q
    .select()
    .from(webhookIntegrations)
    .where(and(eq(webhookIntegrations.organizationId, organizationId), eq(webhookIntegrations.id, integrationUuid(publicId))))
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
  changes: { url?: string; events?: WebhookEventType[]; enabled?: boolean; retrySchedule?: string },
  q: Queryable = db,
): Promise<IntegrationJson> {
  const url = changes.url === undefined ? undefined : await validUrl(changes.url);
  const events = changes.events === undefined ? undefined : validEvents(changes.events);
  const [row] = await q
    .update(webhookIntegrations)
    .set({
      ...(url === undefined ? {} : { url }),
      ...(events === undefined ? {} : { events }),
      ...(changes.enabled === undefined ? {} : { enabled: changes.enabled, disabledReason: null, disabledAt: null }),
      ...(changes.retrySchedule === undefined ? {} : { retrySchedule: validRetrySchedule(changes.retrySchedule) }),
      signingSecret: sql`coalesce(${webhookIntegrations.signingSecret}, ${newSigningSecret()})`,
      updatedAt: new Date(),
    })
    .where(and(eq(webhookIntegrations.organizationId, organizationId), eq(webhookIntegrations.id, integrationUuid(publicId))))
    .returning();
  if (!row) throw notFound("Integration");
  return serializeIntegration(row);
}

/** A new secret takes effect on the next attempt; the old one stops working at once. */
export async function rotateIntegrationSecret(organizationId: string, publicId: string, q: Queryable = db): Promise<IntegrationJson> {
  const [row] = await q
    .update(webhookIntegrations)
    .set({ signingSecret: newSigningSecret(), updatedAt: new Date() })
    .where(and(eq(webhookIntegrations.organizationId, organizationId), eq(webhookIntegrations.id, integrationUuid(publicId))))
    .returning();
  if (!row) throw notFound("Integration");
  return serializeIntegration(row);
}
