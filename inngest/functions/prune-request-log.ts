import { inngest } from "@/inngest/client";
import { env } from "@/lib/env";
import { deleteExpiredRequestLog, PRUNE_BATCH } from "@/lib/request-log/entries";

/** Batches per run: a backlog beyond this many thousand rows goes over the following days. */
const BATCHES_PER_RUN = 200;

/** Retention: request log entries older than REQUEST_LOG_RETENTION_DAYS go, once a day, in bounded batches. */
export const pruneRequestLog = inngest.createFunction(
  { id: "prune-request-log", triggers: [{ cron: "41 3 * * *" }], retries: 0, singleton: { mode: "skip" } },
  async ({ step }) => {
    let deleted = 0;
    for (let batch = 0; batch < BATCHES_PER_RUN; batch++) {
      const count = await step.run("delete-batch", () => deleteExpiredRequestLog(env.REQUEST_LOG_RETENTION_DAYS));
      deleted += count;
      if (count < PRUNE_BATCH) break;
    }
    return { deleted };
  },
);
