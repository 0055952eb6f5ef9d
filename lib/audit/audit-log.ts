import { and, count, desc, eq, gte, lt, or, sql, type SQL } from "drizzle-orm";
import { db, type Queryable } from "@/db/client";
import { apiKeys, auditLog, users } from "@/db/schema";
import { pageOf, type PaginationQuery } from "@/lib/http/pagination";
import { normalizeUuid } from "@/lib/ids";
import type { AuditAction } from "./actions";
import { currentAuditContext, type AuditActor, type RequestOrigin } from "./context";

export interface AuditEntry {
  /** Null only for a failed sign-in with an e-mail no user has. */
  organizationId: string | null;
  action: AuditAction;
  target: { type: string; id?: string | null; label?: string | null };
  /** A few facts about the change; never a secret, a password or a key. */
  details?: Record<string, unknown>;
  /** Instead of the request's actor: sign-ins and invitations act as the user they are about. */
  actor?: AuditActor;
  origin?: RequestOrigin;
}

/** The actor's label as it is at the time of the change: a user's e-mail, a key's prefix and name. */
function actorLabel(actor: AuditActor): SQL | string {
  switch (actor.type) {
    case "system":
      return actor.label;
    case "api_key":
      return sql`coalesce((select ${apiKeys.displayPrefix} || '… ' || ${apiKeys.name} from ${apiKeys} where ${apiKeys.id} = ${actor.id}), 'API key')`;
    case "user":
      return actor.id
        ? sql`coalesce((select ${users.email} from ${users} where ${users.id} = ${actor.id}), ${actor.label ?? "unknown user"})`
        : (actor.label ?? "unknown user");
  }
}

/**
 * Appends one entry, in the caller's transaction (`q`), so the entry exists exactly when the change it records
 * does. The actor, IP address and user agent are the request's (see withAuditContext) unless the entry names them.
 */
export async function recordAudit(q: Queryable, entry: AuditEntry): Promise<void> {
  const context = currentAuditContext();
  const actor = entry.actor ?? context.actor;
  const origin = entry.origin ?? context;
  await q.insert(auditLog).values({
    organizationId: entry.organizationId,
    actorType: actor.type,
    actorId: actor.type === "system" ? null : actor.id,
    actorLabel: actorLabel(actor),
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id ?? null,
    targetLabel: entry.target.label ?? null,
    ipAddress: origin.ipAddress,
    userAgent: origin.userAgent,
    details: entry.details ?? {},
  });
}

export interface AuditFilters {
  /** An actor's id, or the start of their label (an e-mail, a key's sk_… prefix), any case. */
  actor?: string;
  action?: AuditAction;
  /** From this instant (inclusive). */
  from?: Date;
  /** Until this instant (exclusive). */
  to?: Date;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filtersOf(organizationId: string, filters: AuditFilters): SQL {
  const actorId = filters.actor ? normalizeUuid(filters.actor) : null;
  const actorLike = filters.actor ? `${escapeLike(filters.actor.toLowerCase())}%` : null;
  return and(
    eq(auditLog.organizationId, organizationId),
    filters.action ? eq(auditLog.action, filters.action) : undefined,
    actorLike ? or(actorId ? eq(auditLog.actorId, actorId) : undefined, sql`lower(${auditLog.actorLabel}) like ${actorLike}`) : undefined,
    filters.from ? gte(auditLog.createdAt, filters.from) : undefined,
    filters.to ? lt(auditLog.createdAt, filters.to) : undefined,
  )!;
}

export interface AuditLogJson {
  id: string;
  created_at: string;
  action: string;
  actor: { type: AuditActor["type"]; id: string | null; label: string };
  target: { type: string; id: string | null; label: string | null };
  ip_address: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
}

function serializeEntry(row: typeof auditLog.$inferSelect): AuditLogJson {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    action: row.action,
    actor: { type: row.actorType, id: row.actorId, label: row.actorLabel },
    target: { type: row.targetType, id: row.targetId, label: row.targetLabel },
    ip_address: row.ipAddress,
    user_agent: row.userAgent,
    details: row.details,
  };
}

/** One page of the organization's entries, newest first, with how many match the filters. */
export async function listAuditLog(
  organizationId: string,
  filters: AuditFilters,
  page: PaginationQuery,
  q: Queryable = db,
): Promise<{ data: AuditLogJson[]; total: number }> {
  const where = filtersOf(organizationId, filters);
  const [rows, [total]] = await Promise.all([
    q
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(pageOf(page).limit)
      .offset(pageOf(page).offset),
    q.select({ value: count() }).from(auditLog).where(where),
  ]);
  return { data: rows.map(serializeEntry), total: total?.value ?? 0 };
}
