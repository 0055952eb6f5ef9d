import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { openDatabase, rowsOf, setDatabaseHandle, type DatabaseHandle } from "@/db/client";
import { runMigrations } from "@/db/migrator";
import { readMigrations, splitSqlStatements } from "@/db/sql-definitions";
import { sql } from "drizzle-orm";
import { createScratchDatabase, DEFAULT_TEST_SERVER_URL, type ScratchDatabase } from "./scratch-database";

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
      const database = await createScratchDatabase(serverUrl, "test");
      handle = openDatabase({ url: database.url, poolMax: 20 });
      dropDatabase = database.drop;
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
    if (!tables.length) return;
    const truncate = `truncate ${tables.map((t) => `"${t.tablename}"`).join(", ")} cascade`;
    // The server under test may still be writing a batch of the request log (up to a second after the previous
    // test's last request), and the truncate, taking its tables' locks one by one, can deadlock with that insert:
    // PostgreSQL aborts one of the two, and the truncate is simply run again.
    for (let attempt = 1; ; attempt++) {
      try {
        await handle!.exec(truncate);
        return;
      } catch (error) {
        const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
        if (code !== "40P01" || attempt === 3) throw error;
      }
    }
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

/**
 * A fresh, migrated PostgreSQL database for every test, on the server of `serverUrl()` (default: TEST_DATABASE_URL
 * or the local server), made the app's database in this process and dropped after the test. For tests that run
 * app processes of their own against it (tests/faults).
 */
export function usePostgresDatabasePerTest(
  serverUrl: () => string = () => process.env.TEST_DATABASE_URL || DEFAULT_TEST_SERVER_URL,
): { url: () => string; handle: () => DatabaseHandle } {
  let current: { database: ScratchDatabase; handle: DatabaseHandle } | undefined;

  beforeEach(async () => {
    const database = await createScratchDatabase(serverUrl(), "faults");
    const handle = openDatabase({ url: database.url, poolMax: 5 });
    current = { database, handle };
    await runMigrations(handle);
    setDatabaseHandle(handle);
  });

  afterEach(async () => {
    const opened = current;
    current = undefined;
    setDatabaseHandle(undefined);
    if (!opened) return;
    try {
      await opened.handle.close();
    } finally {
      await opened.database.drop();
    }
  });

  const opened = () => {
    if (!current) throw new Error("usePostgresDatabasePerTest: the database is created in beforeEach");
    return current;
  };
  return { url: () => opened().database.url, handle: () => opened().handle };
}

/** The latest migration statement starting with `start` (normalized), as written: a backfill for a test to run again. */
export const migrationStatement = (start: string) =>
  readMigrations().flatMap(splitSqlStatements).findLast((statement) => statement.normalized.startsWith(start))!.text;
