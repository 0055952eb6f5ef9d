import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach } from "vitest";
import postgres from "postgres";
import { openDatabase, rowsOf, setDatabaseHandle, type DatabaseHandle } from "@/db/client";
import { runMigrations } from "@/db/migrator";
import { sql } from "drizzle-orm";

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, a new database on the
 * PostgreSQL server of TEST_DATABASE_URL when set. It becomes the app's database (the `db` export),
 * and every table is emptied before each test.
 */
export function useTestDatabase(): { handle: () => DatabaseHandle } {
  let handle: DatabaseHandle | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (serverUrl) {
      const name = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
      const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      handle = openDatabase({ url: url.toString(), poolMax: 20 });
      dropDatabase = async () => {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      };
    } else {
      handle = openDatabase({ pgliteDir: "memory://" });
    }
    await runMigrations(handle);
    setDatabaseHandle(handle);
  });

  beforeEach(async () => {
    const tables = rowsOf<{ tablename: string }>(
      await handle!.db.execute(sql`select tablename from pg_tables where schemaname = 'public'`),
    );
    if (tables.length) await handle!.exec(`truncate ${tables.map((t) => `"${t.tablename}"`).join(", ")} cascade`);
  });

  afterAll(async () => {
    setDatabaseHandle(undefined);
    await handle?.close();
    await dropDatabase?.();
  });

  return {
    handle: () => {
      if (!handle) throw new Error("useTestDatabase: the database is opened in beforeAll");
      return handle;
    },
  };
}
