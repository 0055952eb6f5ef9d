import { inngest } from "@/inngest/client";
import { env } from "@/lib/env";
import { deleteExpiredDeliveries, RETENTION_BATCH } from "@/lib/webhooks/retention";

/** Batches per run: at most this many thousand deliveries go per hour; a larger backlog takes a few hours. */
const BATCHES_PER_RUN = 50;

/** Retention: finished deliveries older than WEBHOOK_RETENTION_DAYS go, with their attempts, in bounded batches. */
export const pruneWebhookDeliveries = inngest.createFunction(
  { id: "prune-webhook-deliveries", triggers: [{ cron: "17 * * * *" }], retries: 0, singleton: { mode: "skip" } },
  async ({ step }) => {
    let deleted = 0;
    for (let batch = 0; batch < BATCHES_PER_RUN; batch++) {
      const count = await step.run("delete-batch", () => deleteExpiredDeliveries(env.WEBHOOK_RETENTION_DAYS));
      deleted += count;
      if (count < RETENTION_BATCH) break;
    }
    return { deleted };
  },
);
