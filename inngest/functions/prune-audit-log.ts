import { inngest } from "@/inngest/client";
import { AUDIT_PRUNE_BATCH, pruneAuditLog } from "@/lib/audit/retention";
import { env } from "@/lib/env";

/** Batches per run: a larger backlog (a lowered retention) goes over the following days. */
const BATCHES_PER_RUN = 100;

/** Retention: audit log entries older than AUDIT_LOG_RETENTION_DAYS go, daily, in bounded batches. */
export const pruneAuditLogEntries = inngest.createFunction(
  { id: "prune-audit-log", triggers: [{ cron: "41 3 * * *" }], retries: 0, singleton: { mode: "skip" } },
  async ({ step }) => {
    let deleted = 0;
    for (let batch = 0; batch < BATCHES_PER_RUN; batch++) {
      const count = await step.run("delete-batch", () => pruneAuditLog(env.AUDIT_LOG_RETENTION_DAYS));
      deleted += count;
      if (count < AUDIT_PRUNE_BATCH) break;
    }
    return { deleted };
  },
);
