import "server-only";
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { fillPlaceholders, type Query, type SQL } from "drizzle-orm";
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { env } from "@/lib/env";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Anything queries can run on: the database itself or an open transaction. */
export type Queryable = Database | Transaction;

export type DriverName = "pglite" | "postgres";

export interface DatabaseHandle {
  db: Database;
  /**
   * The same database through sessions that plan a statement once for any values (PostgreSQL: a pool of its own
   * with plan_cache_mode = force_generic_plan, opened on first use; PGlite: `db`): for prepared statements whose
   * shape fixes their plan (preparedPerHandle).
   */
  readonly genericDb: Database;
  driver: DriverName;
  /** The postgres:// URL when driver is "postgres". */
  url?: string;
  /** Runs raw SQL text (several statements allowed) outside drizzle: migrations' helpers, benchmarks, tests. */
  exec(sqlText: string): Promise<void>;
  /**
   * PostgreSQL only: LISTEN on `channel` over a connection of its own (re-established after a loss, when
   * `onListen` runs again).
   */
  listen?(channel: string, onMessage: (payload: string) => void, onListen: () => void): Promise<void>;
  /** See executeWithGenericPlan. */
  executeGeneric(query: Query): Promise<unknown[]>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; without it the embedded PGlite database in `pgliteDir` is used. */
  url?: string;
  pgliteDir?: string;
  poolMax?: number;
}

// Next.js may evaluate this module more than once per process (separate bundles, dev reloads), so
// process-wide state lives on globalThis: PGlite must be opened only once per data directory, and the
// process has one session name.
const globalForDb = globalThis as typeof globalThis & { __ticketingDb?: DatabaseHandle; __ticketingSessionName?: string };

/**
 * The application_name of this process's PostgreSQL sessions, unique per process. Other instances on the
 * same database see in pg_stat_activity whether this process still has sessions, i.e. is still alive.
 */
export function sessionName(): string {
  globalForDb.__ticketingSessionName ??= `ticketing ${randomUUID()}`;
  return globalForDb.__ticketingSessionName;
}

/** Statements with more parameters (IN lists of any length, multi-row inserts) stay unnamed: their texts are unbounded. */
const PREPARED_PARAMETERS_MAX = 64;

/**
 * The client as drizzle is given it, except that its queries are prepared statements (named per connection, by
 * text), as postgres.js's own tagged queries are: drizzle sends every query it is not given a name for unnamed,
 * so each one cost a Parse and Describe round again, PostgreSQL parsing it and postgres.js decoding its row
 * description anew, about 0.1 ms of the server process's CPU per query (half of a small query's). The sessions
 * run with plan_cache_mode = force_custom_plan, so every execution is still planned for its own values, as an
 * unnamed statement is: only the parsing is saved, never a plan changed.
 */
function preparing(client: postgres.Sql): postgres.Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (query: string, parameters: postgres.ParameterOrJSON<never>[] = [], options: postgres.UnsafeQueryOptions = {}) =>
          target.unsafe(query, parameters, { ...options, prepare: options.prepare || parameters.length <= PREPARED_PARAMETERS_MAX });
      }
      // drizzle's transactions and savepoints query through the client these hand to their callback.
      if (property === "begin" || property === "savepoint") {
        return (...args: unknown[]) => {
          const run = args.pop() as (sql: postgres.Sql) => unknown;
          return (Reflect.get(target, property, receiver) as (...a: unknown[]) => unknown)(...args, (sql: postgres.Sql) => run(preparing(sql)));
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.url) {
    const url = options.url;
    const poolMax = options.poolMax ?? 10;
    const connect = (max: number, planCacheMode: "force_custom_plan" | "force_generic_plan") =>
      postgres(url, {
        max,
        onnotice: () => {},
        connect_timeout: 5,
        // The default waits before reconnecting grow to 10–20 s after repeated failures: during an outage a
        // request would hang that long before failing, and recovery would lag as much. Retry within a second.
        backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
        // plan_cache_mode: see preparing() and executeWithGenericPlan.
        connection: { application_name: sessionName(), plan_cache_mode: planCacheMode },
        // Undefined values in raw SQL are a programming error; fail instead of sending NULL silently.
        transform: { undefined: null },
      });
    const client = connect(poolMax, "force_custom_plan");
    // The generic pool, opened on its first statement, as large as the main one: the hot key lookups of every API
    // request and delivery run there. Its client is given to drizzle as the main one is, which sets the same type
    // parsers and serializers on it, so a statement's values and rows read the same on both pools.
    let generic: { client: postgres.Sql; db: Database } | undefined;
    const genericPool = () => {
      if (!generic) {
        const genericClient = connect(poolMax, "force_generic_plan");
        generic = { client: genericClient, db: drizzlePostgres(preparing(genericClient), { schema }) as unknown as Database };
      }
      return generic;
    };
    return {
      db: drizzlePostgres(preparing(client), { schema }) as unknown as Database,
      get genericDb() {
        return genericPool().db;
      },
      driver: "postgres",
      url,
      exec: async (text) => {
        await client.unsafe(text);
      },
      listen: async (channel, onMessage, onListen) => {
        await client.listen(channel, onMessage, onListen);
      },
      executeGeneric: async ({ sql: text, params }) =>
        await genericPool().client.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true }),
      close: async () => {
        await Promise.all([client.end({ timeout: 5 }), generic?.client.end({ timeout: 5 })]);
      },
    };
  }
  const dir = options.pgliteDir ?? env.PGLITE_DIR;
  // PGlite creates the data directory itself but not its parents ("memory://" needs neither).
  if (!dir.startsWith("memory://")) mkdirSync(path.dirname(dir), { recursive: true });
  // pg_trgm backs the transactions search's `q` (trigram indexes); migration 0008 creates the extension.
  const client = new PGlite(dir, { extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    genericDb: db,
    driver: "pglite",
    exec: async (text) => {
      await client.exec(text);
    },
    executeGeneric: async ({ sql: text, params }) => (await client.query(text, params)).rows,
    close: () => client.close(),
  };
}

export function databaseHandle(): DatabaseHandle {
  globalForDb.__ticketingDb ??= openDatabase({
    url: env.DATABASE_URL,
    pgliteDir: env.PGLITE_DIR,
    poolMax: env.DB_POOL_MAX,
  });
  return globalForDb.__ticketingDb;
}

/** Replaces the process-wide handle (tests point the app at their own database). */
export function setDatabaseHandle(handle: DatabaseHandle | undefined): void {
  globalForDb.__ticketingDb = handle;
}

export async function closeDatabase(): Promise<void> {
  const handle = globalForDb.__ticketingDb;
  globalForDb.__ticketingDb = undefined;
  await handle?.close();
}

/** A Database of the process-wide handle, looked up on each use (tests swap handles). */
function handleDatabase(pick: (handle: DatabaseHandle) => Database): Database {
  return new Proxy({} as Database, {
    get(_target, property) {
      const real = pick(databaseHandle());
      const value = Reflect.get(real, property, real) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(real) : value;
    },
  });
}

/**
 * The application's database. Opened on first use, not on import, so that `next build`
 * (which imports route modules) never touches the data directory.
 */
export const db: Database = handleDatabase((handle) => handle.db);

/** The application's database through the sessions that plan once for any values: see DatabaseHandle.genericDb. */
export const genericDb: Database = handleDatabase((handle) => handle.genericDb);

/**
 * Where a prepared query is planned. "once": on the handle's genericDb, one plan per session for any values, for
 * queries whose shape fixes the plan (lookups by key, lists of an organization's few events or venues), where planning
 * for each execution's values (the main pool's force_custom_plan) cost PostgreSQL more than running the query
 * (0.05–0.3 ms a statement, pg_stat_statements; 0.29 ms to plan an event page that ran in 0.07). "per-execution": on
 * the main pool, planned for each execution's values (see preparing()), for lists whose best plan depends on them (an
 * organization's million orders, the page's offset, how many orders a filter leaves).
 */
export type Planning = "once" | "per-execution";

/**
 * A drizzle prepared query (built with `sql.placeholder`s, then `.prepare()`) per shape of a query (which optional
 * filters it has, its sort), built once per database handle (tests swap handles) when first asked for: drizzle's
 * building and rendering of a query costs the server process more CPU than sending it (0.1–0.2 ms of a list's
 * request with its count). `key` names a shape; equal keys must build the same query. Only for the handle itself: a
 * transaction builds its queries as usual.
 */
export function preparedPerShape<S, T>(key: (shape: S) => string, build: (database: Database, shape: S) => T, planning: Planning): (shape: S) => T {
  const built = new WeakMap<Database, Map<string, T>>();
  return (shape) => {
    const handle = databaseHandle();
    const database = planning === "once" ? handle.genericDb : handle.db;
    let byKey = built.get(database);
    if (byKey === undefined) built.set(database, (byKey = new Map()));
    const name = key(shape);
    let query = byKey.get(name);
    if (query === undefined) byKey.set(name, (query = build(database, shape)));
    return query;
  };
}

/** preparedPerShape for a query of one shape, planned once: the hot paths' lookups by key. */
export function preparedPerHandle<T>(build: (database: Database) => T): () => T {
  const query = preparedPerShape(() => "", build, "once");
  return () => query(undefined);
}

/**
 * A rendered statement (text and parameters) run with one plan per connection for any values, where planning for
 * the values costs more than it gains: the transactions search's `q` statement, whose CTEs took 0.7–1.9 ms to plan
 * and 0.6 ms to run for an order number, and whose plan the query's shape fixes anyway (each alternative read by its
 * own index, ids from arrays). At 1M orders the generic plan ran as fast or faster for every fragment tried (a
 * surname, e-mail and name fragments, `gmail`, `son`), and `123` took 15 ms where its custom plan took 395. The
 * statement runs on the generic pool (genericDb's sessions, plan_cache_mode = force_generic_plan; the main pool's plan
 * every execution, see preparing()): one round trip, where setting the mode for one statement takes a transaction,
 * three. Also the API key's lookup with its rate-limit hit and a delivery's attempt record (statementWithGenericPlan).
 * PGlite prepares no named statements: there it is a plain query (its rows parsed by PGlite's defaults, not
 * drizzle's, which differ only for dates and timestamps).
 */
export function executeWithGenericPlan(query: Query): Promise<unknown[]> {
  return databaseHandle().executeGeneric(query);
}

/**
 * A hot statement whose shape fixes its plan, built and rendered once with named placeholders (`sql.placeholder`):
 * each call fills in the values and runs it with executeWithGenericPlan. Rows as the driver returns them.
 */
export function statementWithGenericPlan(build: () => SQL): (values: Record<string, unknown>) => Promise<unknown[]> {
  let rendered: Query | undefined;
  return (values) => {
    rendered ??= new PgDialect().sqlToQuery(build());
    return executeWithGenericPlan({ sql: rendered.sql, params: fillPlaceholders(rendered.params, values) });
  };
}

/** `db.execute` returns an array on postgres.js and `{ rows }` on PGlite. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
