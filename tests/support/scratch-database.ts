/**
 * Throw-away PostgreSQL databases for tests. Free of vitest and app imports, so scripts that must set the
 * environment before loading app modules (tests/support/e2e-server.ts) can use it too.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";

/** The server tests use when TEST_DATABASE_URL does not name one. */
export const DEFAULT_TEST_SERVER_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export interface ScratchDatabase {
  name: string;
  url: string;
  /** Drops the database, disconnecting whoever is still connected. */
  drop(): Promise<void>;
}

async function asAdmin(serverUrl: string, statement: string): Promise<void> {
  // A connection per statement: the server may be stopped and started in between (fault tests).
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** A new empty database `<prefix>_<pid>_<random>` on the server of `serverUrl` (any database on it). */
export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
  await asAdmin(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => asAdmin(serverUrl, `drop database if exists ${name} with (force)`),
  };
}
