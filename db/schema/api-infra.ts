import { bigint, index, integer, pgTable, primaryKey, smallint, text, uuid } from "drizzle-orm/pg-core";
import { organizationIdColumn } from "./organizations";
import { createdAtColumn } from "./columns";

// A ring of at most 61 rows per subject (an API key's id, or a dashboard user's): row `slot` stands for second
// `bucket`, slot being bucket mod 61, so a second reuses the row of the second 61 s before it and the subject's
// rows never grow past 61. A row holds `hits_before`, the value of the subject's hit sequence (rate_limit_sequence)
// when the second's first hit came; the hits themselves are nextvals of that sequence, so a hit writes a row only
// once per second (see rate_limit_hit). Slot -1 (bucket 0) is the subject's lock row, whose row lock serialises its
// hits. UNLOGGED with fillfactor 50 (see migration 0028; counters may be lost in a crash, which can only
// under-count). No foreign key, as the subject is either kind; rate_limit_subject_dropped removes a deleted one's
// (and a revoked key's).
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    subjectId: uuid("subject_id").notNull(),
    bucket: bigint("bucket", { mode: "number" }).notNull(),
    slot: smallint("slot").notNull(),
    hitsBefore: bigint("hits_before", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.subjectId, t.slot] })],
);

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
