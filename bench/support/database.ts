import postgres from "postgres";
import type { DatabaseHandle } from "@/db/client";

/** The PostgreSQL server benchmarks use: DATABASE_URL, else the local server with trust auth. */
export const benchServerUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";

export interface BenchDatabase {
  name: string;
  url: string;
  /**
   * Creates the database, opens it as the app's process-wide handle and migrates it. The app's modules load
   * here, so the caller points DATABASE_URL at `url` first.
   */
  open(): Promise<DatabaseHandle>;
  /** Closes the handle, drops the database (disconnecting whoever is still connected) and closes the admin connection. */
  drop(): Promise<void>;
}

/** A database `<prefix>_<timestamp>` on the bench server; named up front so app modules can be pointed at it before loading. */
export function benchDatabase(prefix: string): BenchDatabase {
  const name = `${prefix}_${Date.now()}`;
  const url = new URL(benchServerUrl);
  url.pathname = `/${name}`;
  const admin = postgres(benchServerUrl, { max: 1, onnotice: () => {} });
  let handle: DatabaseHandle | undefined;
  return {
    name,
    url: url.toString(),
    open: async () => {
      const { openDatabase, setDatabaseHandle } = await import("@/db/client");
      const { runMigrations } = await import("@/db/migrator");
      await admin.unsafe(`create database ${name}`);
      handle = openDatabase({ url: url.toString(), poolMax: 4 });
      setDatabaseHandle(handle);
      await runMigrations(handle);
      return handle;
    },
    drop: async () => {
      if (handle) {
        const { setDatabaseHandle } = await import("@/db/client");
        setDatabaseHandle(undefined);
        await handle.close();
      }
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}
