import { inngestCloudMode } from "@/lib/env";
import { log } from "@/lib/log";
import { releaseUnfinishedDeliveries } from "./deliveries";
import { announceDeliveries } from "./outbox";

/** Restarts the deliveries that dead processes left unfinished (see releaseUnfinishedDeliveries). */
export async function resumeUnfinishedDeliveries(): Promise<number> {
  const ids = await releaseUnfinishedDeliveries();
  await announceDeliveries(ids);
  return ids.length;
}

/** Server start-up: with Inngest Cloud nothing to do (it runs the functions and the cron); otherwise the in-process driver. */
export async function startWebhookRuntime(): Promise<void> {
  if (inngestCloudMode) return;
  const { inProcessDriver } = await import("@/inngest/driver");
  inProcessDriver().startCron();
  const resumed = await resumeUnfinishedDeliveries();
  if (resumed) log.info("resumed unfinished webhook deliveries", { deliveries: resumed });
}
