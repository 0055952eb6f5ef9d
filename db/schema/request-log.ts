import { sql } from "drizzle-orm";
import { bigint, boolean, doublePrecision, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

// One row per request made with an sk_ key, written in batches by lib/request-log/buffer (never in the request's
// transaction) and pruned after REQUEST_LOG_RETENTION_DAYS. No foreign key on the key: its requests stay readable
// after it is revoked, and the batch insert checks one reference per row, not two.
export const requestLog = pgTable(
  "request_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    apiKeyId: uuid("api_key_id").notNull(),
    traceId: text("trace_id").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    /** The query string without its `?`; empty when there was none. */
    query: text("query").notNull(),
    status: integer("status").notNull(),
    durationMs: doublePrecision("duration_ms").notNull(),
    clientIp: text("client_ip"),
    userAgent: text("user_agent"),
    /** Writes only: the JSON body with secret-like fields redacted, cut at 10 KB with a marker. */
    requestBody: text("request_body"),
    requestBodyTruncated: boolean("request_body_truncated").notNull().default(false),
    /** The Location of a 201: what the request created. */
    createdResource: text("created_resource"),
    /** The public id (ord_…) of the order an order write created or changed. */
    orderId: text("order_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("request_log_trace_idx").on(t.organizationId, t.traceId),
    index("request_log_org_time_idx").on(t.organizationId, t.createdAt.desc(), t.id.desc()),
    index("request_log_org_status_class_idx").on(t.organizationId, sql`(${t.status} / 100)`, t.createdAt.desc()),
    index("request_log_org_key_idx").on(t.organizationId, t.apiKeyId, t.createdAt.desc()),
    index("request_log_org_path_idx").on(t.organizationId, t.path.op("text_pattern_ops")),
    // Retention deletes by age across organizations.
    index("request_log_created_idx").on(t.createdAt),
  ],
);
