import path from "node:path";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import postgres from "postgres";
import type { DatabaseHandle } from "./client";

const migrationsFolder = path.join(process.cwd(), "db", "migrations");
// Several app instances may start together against one PostgreSQL; only one migrates at a time.
const MIGRATION_LOCK_ID = 727001;

export async function runMigrations(handle: DatabaseHandle): Promise<void> {
  if (handle.driver === "pglite") {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  // A session-level lock needs one connection for lock, migration and unlock.
  const client = postgres(handle.url!, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migratePostgres(drizzlePostgres(client), { migrationsFolder });
  } finally {
    await client.end({ timeout: 5 });
  }
}
