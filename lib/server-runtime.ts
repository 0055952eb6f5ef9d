import { databaseHandle } from "@/db/client";
import { runMigrations } from "@/db/migrator";
import { log } from "@/lib/log";
import { startWebhookRuntime } from "@/lib/webhooks/runtime";

/** Start-up work of a server process: the schema is brought up to date before the first request, then webhook deliveries resume. */
export async function startServerRuntime(): Promise<void> {
  const handle = databaseHandle();
  await runMigrations(handle);
  log.info("database ready", { driver: handle.driver });
  // After migrations: resuming deliveries reads and writes the webhook tables.
  await startWebhookRuntime();
}
