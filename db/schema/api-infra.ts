import { bigint, boolean, index, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { organizationIdColumn } from "./organizations";
import { createdAtColumn } from "./columns";

// One row per subject (an API key's id, or a dashboard user's): its hits in the last 61 whole seconds,
// hits[1] being second `bucket` and hits[k] second `bucket - (k - 1)`; rate_limit_hit sums them. A request
// rewrites the row in place: the table is UNLOGGED with fillfactor 50 and its only index is on subject_id,
// so every rewrite is a HOT update pruned within its page (see the migration; counters may be lost in a
// crash, which can only under-count). No foreign key, as the subject is either kind.
export const rateLimitCounters = pgTable("rate_limit_counters", {
  subjectId: uuid("subject_id").primaryKey(),
  bucket: bigint("bucket", { mode: "number" }).notNull(),
  hits: integer("hits").array().notNull(),
  allowed: boolean("allowed").notNull(),
});

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    organizationId: organizationIdColumn(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: createdAtColumn(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

// Failed dashboard sign-ins, to slow down password guessing per e-mail address.
export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [index("login_attempts_email_idx").on(t.email, t.createdAt)],
);
