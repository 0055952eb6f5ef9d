import { inngest } from "@/inngest/client";
import { pruneInBatches } from "@/inngest/prune-in-batches";
import { env } from "@/lib/env";
import { deleteExpiredDeliveries, RETENTION_BATCH } from "@/lib/webhooks/retention";

/** Batches per run: at most this many thousand deliveries go per hour; a larger backlog takes a few hours. */
const BATCHES_PER_RUN = 50;

/** Retention: finished deliveries older than WEBHOOK_RETENTION_DAYS go, with their attempts, in bounded batches. */
export const pruneWebhookDeliveries = inngest.createFunction(
  { id: "prune-webhook-deliveries", triggers: [{ cron: "17 * * * *" }], retries: 0, singleton: { mode: "skip" } },
  ({ step }) => pruneInBatches(step, BATCHES_PER_RUN, RETENTION_BATCH, () => deleteExpiredDeliveries(env.WEBHOOK_RETENTION_DAYS)),
);
