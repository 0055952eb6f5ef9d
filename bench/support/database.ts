import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import type { DatabaseHandle } from "@/db/client";

/** The PostgreSQL server benchmarks use: DATABASE_URL, else the local server with trust auth. */
export const benchServerUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";

/** The seeded state several benchmarks share: a measured organization with `orders` and another with `otherOrders`. */
export interface BenchSeed {
  orders: number;
  otherOrders: number;
}

/** What a seeded bench database holds, read from its template. */
export interface SeededOrganizations {
  mainOrganizationId: string;
  otherOrganizationId: string;
  /** The seed's `now`: the orders span the 365 days before it. */
  seededAt: string;
  /** How long seeding the template took (both organizations), whenever that was. */
  seedSeconds: number;
  /** False when this run seeded the template, true when an earlier run's was copied. */
  templateReused: boolean;
  /** How long `CREATE DATABASE … TEMPLATE` took for this run's database. */
  cloneSeconds: number;
}

export interface BenchDatabase {
  name: string;
  url: string;
  /**
   * Creates the database, opens it as the app's process-wide handle and migrates it. The app's modules load
   * here, so the caller points DATABASE_URL at `url` first.
   */
  open(): Promise<DatabaseHandle>;
  /**
   * Like open(), but the database is a copy of the seeded template for `seed` (see seededTemplate()), seeding
   * the template first when no run has yet.
   */
  openSeeded(seed: BenchSeed): Promise<{ handle: DatabaseHandle; seeded: SeededOrganizations }>;
  /** Closes the handle, drops the database (disconnecting whoever is still connected) and closes the admin connection. */
  drop(): Promise<void>;
}

const TEMPLATE_PREFIX = "bench_tpl_";
const root = path.resolve(import.meta.dirname, "..", "..");

function databaseUrl(name: string): string {
  const url = new URL(benchServerUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A database `<prefix>_<timestamp>` on the bench server; named up front so app modules can be pointed at it before loading. */
export function benchDatabase(prefix: string): BenchDatabase {
  const name = `${prefix}_${Date.now()}`;
  const url = databaseUrl(name);
  const admin = postgres(benchServerUrl, { max: 1, onnotice: () => {} });
  let handle: DatabaseHandle | undefined;
  const openHandle = async (migrate: boolean) => {
    const { openDatabase, setDatabaseHandle } = await import("@/db/client");
    const { runMigrations } = await import("@/db/migrator");
    handle = openDatabase({ url, poolMax: 4 });
    setDatabaseHandle(handle);
    if (migrate) await runMigrations(handle);
    return handle;
  };
  return {
    name,
    url,
    open: async () => {
      await admin.unsafe(`create database ${name}`);
      return openHandle(true);
    },
    openSeeded: async (seed) => ({ seeded: await copyOfSeededTemplate(admin, name, seed), handle: await openHandle(false) }),
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

/** Every file under `dir` (recursively), in a stable order. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * The template's name: a hash of what decides its contents (the migrations, the bulk seed and the customer
 * data it draws from, the seed's sizes), so that a change to any of them seeds a new template.
 */
function templateName(seed: BenchSeed): string {
  const hash = createHash("sha256").update(JSON.stringify(seed));
  const sources = [
    ...filesUnder(path.join(root, "db", "migrations")),
    path.join(root, "lib", "demo", "bulk-seed.ts"),
    path.join(root, "lib", "demo", "customers.ts"),
  ];
  for (const file of sources) hash.update(path.relative(root, file)).update(readFileSync(file));
  return TEMPLATE_PREFIX + hash.digest("hex").slice(0, 16);
}

type TemplateMetadata = Omit<SeededOrganizations, "templateReused" | "cloneSeconds">;

/**
 * Creates database `target` as a copy of the seeded template for `seed`, seeding the template first unless an
 * earlier run left it. Seeding takes minutes at 1,000,000 orders; copying takes seconds, so every benchmark that
 * needs this state, and every later run, starts from a copy. Templates of other hashes (an older schema or seed)
 * are dropped. A session advisory lock on the server, held until the copy is made, keeps two benchmarks started
 * at once from seeding twice or dropping a template the other is copying. What the template holds is recorded as
 * JSON in its database comment.
 */
async function copyOfSeededTemplate(admin: postgres.Sql, target: string, seed: BenchSeed): Promise<SeededOrganizations> {
  const name = templateName(seed);
  await admin`select pg_advisory_lock(hashtext(${TEMPLATE_PREFIX}))`;
  try {
    const stale = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`${TEMPLATE_PREFIX}%`} and datname <> ${name}`;
    for (const { datname } of stale) await admin.unsafe(`drop database ${datname} with (force)`);
    const [existing] = await admin<{ comment: string | null }[]>`
      select shobj_description(oid, 'pg_database') as comment from pg_database where datname = ${name}`;
    // A template without its comment was left half-seeded by an interrupted run.
    if (existing && !existing.comment) await admin.unsafe(`drop database ${name} with (force)`);
    const template = existing?.comment
      ? { ...(JSON.parse(existing.comment) as TemplateMetadata), templateReused: true }
      : { ...(await seedTemplate(admin, name, seed)), templateReused: false };
    const started = performance.now();
    // FILE_COPY: a checkpoint and a copy of the files, instead of WAL for every block of a gigabyte or two.
    await admin.unsafe(`create database ${target} template ${name} strategy file_copy`);
    return { ...template, cloneSeconds: Math.round((performance.now() - started) / 100) / 10 };
  } finally {
    await admin`select pg_advisory_unlock(hashtext(${TEMPLATE_PREFIX}))`;
  }
}

/** Creates, migrates and seeds the template through the app's own code, then closes every connection to it. */
async function seedTemplate(admin: postgres.Sql, name: string, seed: BenchSeed): Promise<TemplateMetadata> {
  const { openDatabase, setDatabaseHandle } = await import("@/db/client");
  const { runMigrations } = await import("@/db/migrator");
  const { createOrganization } = await import("@/lib/organizations/organizations");
  const { bulkSeedOrders } = await import("@/lib/demo/bulk-seed");
  await admin.unsafe(`create database ${name}`);
  const handle = openDatabase({ url: databaseUrl(name), poolMax: 4 });
  setDatabaseHandle(handle);
  try {
    await runMigrations(handle);
    const main = await createOrganization({ name: `Bench main (${seed.orders.toLocaleString("en")} orders)`, currency: "SEK" });
    const other = await createOrganization({ name: "Bench other", currency: "EUR" });
    const now = new Date();
    const started = performance.now();
    await bulkSeedOrders(other.id, seed.otherOrders, { now });
    await bulkSeedOrders(main.id, seed.orders, { now });
    const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    await handle.exec("vacuum analyze");
    const metadata: TemplateMetadata = { mainOrganizationId: main.id, otherOrganizationId: other.id, seededAt: now.toISOString(), seedSeconds };
    // Last: only a template with its comment counts as seeded.
    await admin.unsafe(`comment on database ${name} is '${JSON.stringify(metadata)}'`);
    return metadata;
  } finally {
    setDatabaseHandle(undefined);
    await handle.close();
  }
}
