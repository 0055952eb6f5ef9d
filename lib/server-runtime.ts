import { databaseHandle } from "@/db/client";
import { runMigrations } from "@/db/migrator";
import { log } from "@/lib/log";

/** Start-up work of a server process: the schema is brought up to date before the first request. */
export async function startServerRuntime(): Promise<void> {
  const handle = databaseHandle();
  await runMigrations(handle);
  log.info("database ready", { driver: handle.driver });
}
