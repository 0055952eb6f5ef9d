import postgres from "postgres";

/** The PostgreSQL server benchmarks use: DATABASE_URL, else the local server with trust auth. */
export const benchServerUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";

export interface BenchDatabase {
  name: string;
  url: string;
  create(): Promise<void>;
  /** Drops the database (disconnecting whoever is still connected) and closes the admin connection. */
  drop(): Promise<void>;
}

/** A database `<prefix>_<timestamp>` on the bench server; named up front so app modules can be pointed at it before loading. */
export function benchDatabase(prefix: string): BenchDatabase {
  const name = `${prefix}_${Date.now()}`;
  const url = new URL(benchServerUrl);
  url.pathname = `/${name}`;
  const admin = postgres(benchServerUrl, { max: 1, onnotice: () => {} });
  return {
    name,
    url: url.toString(),
    create: async () => {
      await admin.unsafe(`create database ${name}`);
    },
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}
