import { inProcessDriver } from "@/inngest/embedded";
import { inngestCloudMode } from "@/lib/env";
import { log } from "@/lib/log";
import { findWaitingDeliveries, releaseDeliveriesOfDeadProcesses } from "./delivery-queue";
import { announceDeliveries } from "./outbox";

/** Restarts the deliveries that dead processes left unfinished, and every other waiting one. */
export async function resumeUnfinishedDeliveries(): Promise<number> {
  await releaseDeliveriesOfDeadProcesses();
  const ids = await findWaitingDeliveries();
  await announceDeliveries(ids);
  return ids.length;
}

/** Server start-up: with Inngest Cloud nothing to do (it runs the functions and the cron); otherwise the embedded engine. */
export async function startWebhookRuntime(): Promise<void> {
  if (inngestCloudMode) return;
  inProcessDriver().startCron();
  const resumed = await resumeUnfinishedDeliveries();
  if (resumed) log.info("resumed unfinished webhook deliveries", { deliveries: resumed });
}
