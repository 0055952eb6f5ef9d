import { inngest } from "@/inngest/client";
import { pruneInBatches } from "@/inngest/prune-in-batches";
import { AUDIT_PRUNE_BATCH, pruneAuditLog } from "@/lib/audit/retention";
import { env } from "@/lib/env";

/** Batches per run: a larger backlog (a lowered retention) goes over the following days. */
const BATCHES_PER_RUN = 100;

/** Retention: audit log entries older than AUDIT_LOG_RETENTION_DAYS go, daily, in bounded batches. */
export const pruneAuditLogEntries = inngest.createFunction(
  { id: "prune-audit-log", triggers: [{ cron: "41 3 * * *" }], retries: 0, singleton: { mode: "skip" } },
  ({ step }) => pruneInBatches(step, BATCHES_PER_RUN, AUDIT_PRUNE_BATCH, () => pruneAuditLog(env.AUDIT_LOG_RETENTION_DAYS)),
);
