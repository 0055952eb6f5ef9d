import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

export const AUDIT_ACTOR_TYPES = ["user", "api_key", "system"] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/**
 * The security history (lib/audit): append-only, enforced by the audit_log_append_only trigger (db/sql), which
 * refuses UPDATE and lets DELETE take only rows past the retention (or of a deleted organization).
 * No foreign key on actor_id: users and keys come and go, their entries stay, with the label they had.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Null only for a failed sign-in with an e-mail no user has: it belongs to no organization.
    organizationId: uuid("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    actorType: text("actor_type").$type<AuditActorType>().notNull(),
    // The user's or the API key's id; null for the system and for a sign-in attempt with an unknown e-mail.
    actorId: uuid("actor_id"),
    // The user's e-mail, the key's prefix and name, or what the system actor was (the admin CLI).
    actorLabel: text("actor_label").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    targetLabel: text("target_label"),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    // The list (newest first, optionally between dates) and its filters, always within one organization; read
    // backwards, an ascending index gives the newest first.
    index("audit_log_organization_created_idx").on(t.organizationId, t.createdAt, t.id),
    index("audit_log_organization_action_idx").on(t.organizationId, t.action, t.createdAt),
    index("audit_log_organization_actor_idx").on(t.organizationId, t.actorId, t.createdAt),
    // Retention: the prune deletes the oldest rows of every organization.
    index("audit_log_created_idx").on(t.createdAt),
    check("audit_log_actor_type_check", sql`${t.actorType} in ('user','api_key','system')`),
  ],
);
