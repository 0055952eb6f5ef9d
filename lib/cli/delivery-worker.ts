/**
 * The delivery worker of `npm start` on PostgreSQL (forked by lib/cli/start.ts beside the web workers): runs
 * every webhook delivery and cron function off the web workers' event loops, as an Inngest server would, and
 * tells the primary once it listens for their events.
 */
import { closeDatabase } from "@/db/client";
import { log } from "@/lib/log";
import { runDeliveryWorker } from "@/lib/webhooks/runtime";

await runDeliveryWorker();
process.send?.("ready");
log.info("delivery worker listening");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    // Runs still attempting are released by the next worker's start-up resume (their session is gone).
    void closeDatabase().finally(() => process.exit(0));
  });
}
