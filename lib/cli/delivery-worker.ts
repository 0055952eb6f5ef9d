/**
 * The delivery worker of `npm start` on PostgreSQL (forked by lib/cli/start.ts beside the web workers): runs
 * every webhook delivery and cron function off the web workers' event loops, as an Inngest server would, and
 * tells the primary once it listens for their events.
 */
import { closeDatabase } from "@/db/client";
import { log } from "@/lib/log";
import { runDeliveryWorker } from "@/lib/webhooks/runtime";
import { PEER_CRASHED } from "./worker-cluster";

const PEER_COMMIT_GRACE_MS = 1_000;

const { resume } = await runDeliveryWorker();
// A web worker killed between committing an order and announcing its delivery leaves it unannounced: resumed here
// at once rather than by the sweeper minutes later. The grace lets a commit already under way become visible.
process.on("message", (message) => message === PEER_CRASHED && setTimeout(resume, PEER_COMMIT_GRACE_MS));
process.send?.("ready");
log.info("delivery worker listening");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    // Runs still attempting are released by the next worker's start-up resume (their session is gone).
    void closeDatabase().finally(() => process.exit(0));
  });
}
