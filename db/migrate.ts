import { closeDatabase, databaseHandle } from "./client";
import { runMigrations } from "./migrator";

const handle = databaseHandle();
await runMigrations(handle);
console.log(JSON.stringify({ migrated: true, driver: handle.driver }));
await closeDatabase();
