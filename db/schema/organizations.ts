import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { Role } from "./roles";
import { createdAtColumn } from "./columns";

export const CURRENCIES = ["SEK", "EUR", "NOK", "DKK"] as const;
export type Currency = (typeof CURRENCIES)[number];

export const organizations = pgTable(
  "organizations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    currency: text("currency").$type<Currency>().notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [check("organizations_currency_check", sql`${t.currency} in ('SEK','EUR','NOK','DKK')`)],
);

/** The organization a tenant's row belongs to: every query filters by it, and the row goes with the organization. */
export const organizationIdColumn = () =>
  uuid("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" });

/**
 * Number of orders per organization, kept by statement triggers on orders (db/sql/organization-order-count-*.sql)
 * in up to 64 slot rows that readers sum (db/sql/order-counter-slot.sql), so concurrent orders do not queue on
 * one row: the unfiltered transactions-search total_count reads these instead of counting a million orders.
 * An organization's order numbers come from its own sequence (db/sql/next-order-number.sql), not from a row.
 */
export const organizationOrderCounts = pgTable(
  "organization_order_counts",
  {
    organizationId: organizationIdColumn(),
    slot: smallint("slot").notNull(),
    orderCount: bigint("order_count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.slot] })],
);

export { USER_ROLES, type Role } from "./roles";

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    email: text("email").notNull(),
    name: text("name"),
    passwordHash: text("password_hash").notNull(),
    role: text("role").$type<Role>().notNull().default("viewer"),
    // Carried by every session and user token; bumping it (sign-out, password change) ends them all.
    sessionVersion: integer("session_version").notNull().default(0),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(sql`lower(${t.email})`),
    index("users_organization_idx").on(t.organizationId),
    check("users_role_check", sql`${t.role} in ('owner','admin','developer','viewer')`),
  ],
);

/** A one-time link to join an organization with a role; only the token's hash is stored. */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    email: text("email").notNull(),
    role: text("role").$type<Role>().notNull(),
    // SHA-256 of the token, like API keys: high-entropy, so a fast hash allows lookup.
    tokenHash: text("token_hash").notNull(),
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_unique").on(t.tokenHash),
    index("invitations_organization_idx").on(t.organizationId, t.createdAt),
    check("invitations_role_check", sql`${t.role} in ('owner','admin','developer','viewer')`),
  ],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    name: text("name").notNull(),
    // SHA-256 of the full key: keys are high-entropy, so a fast hash is enough and allows lookup.
    keyHash: text("key_hash").notNull(),
    displayPrefix: text("display_prefix").notNull(),
    scopes: text("scopes").array().notNull(),
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull().default(60),
    createdAt: createdAtColumn(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("api_keys_key_hash_unique").on(t.keyHash),
    index("api_keys_organization_idx").on(t.organizationId, t.createdAt),
    check("api_keys_rate_limit_check", sql`${t.rateLimitPerMinute} between 1 and 1000000`),
  ],
);
