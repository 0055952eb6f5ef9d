import { closeDatabase, databaseHandle } from "./client";
import { runMigrations } from "./migrator";
import { refuseIfServerHoldsDatabase } from "@/lib/cli/server-pid";

refuseIfServerHoldsDatabase();
const handle = databaseHandle();
try {
  await runMigrations(handle);
  console.log(JSON.stringify({ migrated: true, driver: handle.driver }));
} finally {
  await closeDatabase();
}
