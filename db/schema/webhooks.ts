import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { orders } from "./orders";
import { organizationIdColumn, organizations, users } from "./organizations";
import { createdAtColumn } from "./columns";

export const WEBHOOK_EVENT_TYPES = ["OrderCompleted", "OrderRefunded"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** `immediate` re-queues a failed delivery at once (the spec's default); `nominal` waits until its next_retry_at. */
export const RETRY_SCHEDULES = ["immediate", "nominal"] as const;
export type RetrySchedule = (typeof RETRY_SCHEDULES)[number];
export const DISABLED_REASONS = ["failing"] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

export const webhookIntegrations = pgTable(
  "webhook_integrations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    kind: text("kind").$type<"webhook">().notNull().default("webhook"),
    url: text("url").notNull(),
    events: text("events").array().$type<WebhookEventType[]>().notNull(),
    // Kept readable because every attempt is signed with it; null for integrations that predate signing.
    signingSecret: text("signing_secret"),
    // After a rotation with an overlap, the replaced secret still signs deliveries (second) until it expires.
    previousSigningSecret: text("previous_signing_secret"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    description: text("description").notNull().default(""),
    enabled: boolean("enabled").notNull().default(true),
    retrySchedule: text("retry_schedule").$type<RetrySchedule>().notNull().default("immediate"),
    // Set when the system (not a user) disabled the integration; cleared when it is enabled again.
    disabledReason: text("disabled_reason").$type<DisabledReason>(),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    // Since when its attempts fail: set by the first failed attempt after a success, cleared by the next success.
    // Its deliveries then run in a narrow lane of their own (lib/webhooks/failing-integrations.ts).
    failingSince: timestamp("failing_since", { withTimezone: true }),
    // Soft delete: the row stays so its delivery history stays readable; every integration query skips it.
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: createdAtColumn(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_integrations_organization_idx").on(t.organizationId, t.createdAt),
    // What every process rereads a few times a second (lib/webhooks/failing-integrations.ts): the few failing ones.
    index("webhook_integrations_failing_idx").on(t.id).where(sql`${t.failingSince} is not null and ${t.deletedAt} is null`),
    check("webhook_integrations_retry_schedule_check", sql`${t.retrySchedule} in ('immediate','nominal')`),
    check("webhook_integrations_disabled_reason_check", sql`${t.disabledReason} in ('failing')`),
  ],
);

/** One bulk recovery call: its window, how many redeliveries it queued (each carries its id) and who asked. */
export const webhookRecoveries = pgTable(
  "webhook_recoveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    integrationId: uuid("integration_id")
      .notNull()
      .references(() => webhookIntegrations.id, { onDelete: "cascade" }),
    windowSince: timestamp("window_since", { withTimezone: true }).notNull(),
    windowUntil: timestamp("window_until", { withTimezone: true }).notNull(),
    queued: integer("queued").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_recoveries_integration_idx").on(t.organizationId, t.integrationId, t.createdAt),
    check("webhook_recoveries_window_check", sql`${t.windowSince} < ${t.windowUntil}`),
  ],
);

export const DELIVERY_STATUSES = ["Pending", "InProgress", "Success", "Failed", "PermanentlyFailed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    integrationId: uuid("integration_id")
      .notNull()
      .references(() => webhookIntegrations.id, { onDelete: "cascade" }),
    eventType: text("event_type").$type<WebhookEventType>().notNull(),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    // The exact bytes sent on every attempt, fixed when the event fired.
    payload: text("payload").notNull(),
    status: text("status").$type<DeliveryStatus>().notNull().default("Pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextRetryAt: timestamp("next_retry_at", { withTimezone: true }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    redeliveryOf: uuid("redelivery_of"),
    // The bulk recovery that queued this redelivery; its progress is counted over these.
    recoveryId: uuid("recovery_id").references(() => webhookRecoveries.id, { onDelete: "set null" }),
    // "Send test delivery" writes a sample order: no order row behind it.
    test: boolean("test").notNull().default(false),
    // The PostgreSQL application_name of the process making the current attempt: while a session with that
    // name exists, the process is alive and an InProgress delivery is its own (see releaseUnfinishedDeliveries).
    claimedBy: text("claimed_by"),
    createdAt: createdAtColumn(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_org_created_idx").on(t.organizationId, t.createdAt, t.id),
    index("webhook_deliveries_org_integration_idx").on(t.organizationId, t.integrationId, t.createdAt),
    index("webhook_deliveries_org_order_idx").on(t.organizationId, t.orderId).where(sql`order_id is not null`),
    index("webhook_deliveries_redelivery_of_idx").on(t.redeliveryOf).where(sql`redelivery_of is not null`),
    index("webhook_deliveries_recovery_idx").on(t.recoveryId, t.status).where(sql`recovery_id is not null`),
    // The sweeper looks only at unfinished deliveries.
    index("webhook_deliveries_unfinished_idx")
      .on(t.status, t.updatedAt)
      .where(sql`status in ('Pending','InProgress','Failed')`),
    // Retention deletes finished deliveries oldest first.
    index("webhook_deliveries_finished_created_idx")
      .on(t.createdAt)
      .where(sql`status in ('Success','PermanentlyFailed')`),
    check(
      "webhook_deliveries_status_check",
      sql`${t.status} in ('Pending','InProgress','Success','Failed','PermanentlyFailed')`,
    ),
    check("webhook_deliveries_attempts_check", sql`${t.attemptCount} between 0 and 5`),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptNumber: integer("attempt_number").notNull(),
    // The request as sent; null on attempts recorded before requests were kept.
    requestUrl: text("request_url"),
    requestMethod: text("request_method"),
    requestHeaders: jsonb("request_headers").$type<Record<string, string>>(),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    statusCode: integer("status_code"),
    responseBody: text("response_body"),
    durationMs: integer("duration_ms").notNull(),
    errorMessage: text("error_message"),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex("webhook_attempts_number_unique").on(t.deliveryId, t.attemptNumber)],
);
