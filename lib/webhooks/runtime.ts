import { subscribeToEvents } from "@/inngest/event-channel";
import { inProcessDriver } from "@/inngest/embedded";
import { deliveriesInWorker, inngestCloudMode } from "@/lib/env";
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

async function resumeAndReport(): Promise<void> {
  const resumed = await resumeUnfinishedDeliveries();
  if (resumed) log.info("resumed unfinished webhook deliveries", { deliveries: resumed });
}

/**
 * Server start-up: with Inngest Cloud nothing to do (it runs the functions and the cron), nor in a web worker
 * whose deliveries run in the delivery worker; otherwise the embedded engine.
 */
export async function startWebhookRuntime(): Promise<void> {
  if (inngestCloudMode || deliveriesInWorker) return;
  inProcessDriver().startCron();
  await resumeAndReport();
}

/**
 * `npm start`'s delivery worker on PostgreSQL: the embedded engine for every web worker, fed with the events they
 * send through the database (see inngest/event-channel.ts), and the crons. Each time it (re)starts listening it
 * resumes what was left unfinished or announced while nobody listened (a worker that was killed, a lost connection);
 * `resume` does the same on demand, for a web worker that died between committing a delivery and announcing it.
 */
export async function runDeliveryWorker(): Promise<{ resume(): void }> {
  const driver = inProcessDriver();
  driver.startCron();
  const resume = () => void resumeAndReport().catch((error: unknown) => log.error("resuming webhook deliveries failed", { error: String(error) }));
  await subscribeToEvents((events) => driver.dispatch(events), resume);
  return { resume };
}
