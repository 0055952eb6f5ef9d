import "server-only";
import { sql } from "drizzle-orm";
import { db } from "@/db/client";
import { requestLog } from "@/db/schema";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { loggedBody } from "./redact";

/** Pending rows are written at the latest this long after the first of them was recorded: the most a crash loses. */
export const FLUSH_INTERVAL_MS = 1_000;
/** A buffer this full is written at once, so a burst never holds more than one INSERT's worth. */
export const FLUSH_ROWS = 500;

/** One request as the route wrapper saw it; the body is redacted and serialized when the batch is written. */
export interface RequestRecord {
  organizationId: string;
  apiKeyId: string;
  traceId: string;
  method: string;
  path: string;
  query: string;
  status: number;
  durationMs: number;
  clientIp: string | null;
  userAgent: string | null;
  /** The parsed JSON body of a write; undefined for reads and bodies that were refused. */
  body?: unknown;
  createdResource: string | null;
  orderId: string | null;
  at: Date;
}

interface BufferState {
  rows: RequestRecord[];
  timer?: NodeJS.Timeout;
  writes: Set<Promise<void>>;
  /** After SIGTERM/SIGINT each record is written at once: the server is draining and will exit soon. */
  stopping: boolean;
  hooked: boolean;
}

// Per process, on globalThis: Next.js may load this module in more than one bundle of the same server.
const globalForLog = globalThis as typeof globalThis & { __requestLogBuffer?: BufferState };
const state = (globalForLog.__requestLogBuffer ??= { rows: [], writes: new Set(), stopping: false, hooked: false });

function rowOf(record: RequestRecord) {
  const stored = record.body === undefined ? null : loggedBody(record.body);
  return {
    organization_id: record.organizationId,
    api_key_id: record.apiKeyId,
    trace_id: record.traceId,
    method: record.method,
    path: record.path,
    query: record.query,
    status: record.status,
    duration_ms: record.durationMs,
    client_ip: record.clientIp,
    user_agent: record.userAgent,
    request_body: stored?.text ?? null,
    request_body_truncated: stored?.truncated ?? false,
    created_resource: record.createdResource,
    order_id: record.orderId,
    created_at: record.at.toISOString(),
  };
}

// The batch travels as one JSON parameter: building a 500-row VALUES list with 7,500 parameters cost far more CPU
// in the server process than the insert itself.
const COLUMNS = sql.raw(
  "organization_id uuid, api_key_id uuid, trace_id text, method text, path text, query text, status integer, " +
    "duration_ms double precision, client_ip text, user_agent text, request_body text, request_body_truncated boolean, " +
    "created_resource text, order_id text, created_at timestamptz",
);
const NAMES = sql.raw(
  "organization_id, api_key_id, trace_id, method, path, query, status, duration_ms, client_ip, user_agent, request_body, " +
    "request_body_truncated, created_resource, order_id, created_at",
);

async function write(records: RequestRecord[]): Promise<void> {
  try {
    const rows = JSON.stringify(records.map(rowOf));
    // Records of an organization deleted since its requests are skipped, not allowed to fail the others' batch.
    await db.execute(
      sql`insert into ${requestLog} (${NAMES}) select ${NAMES} from json_to_recordset(${rows}::json) as batch(${COLUMNS})
        where exists (select 1 from organizations o where o.id = batch.organization_id)`,
    );
  } catch (error) {
    // The log is best effort: a failed batch is reported and dropped, never retried into the requests' way.
    // drizzle wraps the driver's error (the constraint or connection failure) as its cause.
    log.error("request log batch dropped", { rows: records.length, error: String((error as Error).cause ?? error) });
  }
}

/** Writes every pending record in one INSERT; resolves when it and every earlier write have finished. */
export async function flushRequestLog(): Promise<void> {
  clearTimeout(state.timer);
  state.timer = undefined;
  const records = state.rows.splice(0);
  if (records.length) {
    const pending = write(records);
    state.writes.add(pending);
    void pending.finally(() => state.writes.delete(pending));
  }
  await Promise.all(state.writes);
}

/** How long an exit waits at most for the last batch. */
const EXIT_GRACE_MS = 5_000;

/**
 * Next's signal handler drains the server, then calls process.exit, which would cut the last batch's INSERT short
 * (the requests that finished while draining). Nothing else marks that moment, so the exit waits for the writes.
 */
function exitOnlyOnceWritten() {
  const exit = process.exit.bind(process);
  process.exit = ((code?: number) => {
    const timeout = setTimeout(() => exit(code), EXIT_GRACE_MS);
    void flushRequestLog().finally(() => {
      clearTimeout(timeout);
      exit(code);
    });
  }) as typeof process.exit;
}

function flushOnShutdown() {
  if (state.hooked) return;
  state.hooked = true;
  const stop = (signal?: NodeJS.Signals) => {
    state.stopping = true;
    const written = flushRequestLog();
    if (!signal) return;
    // Alone on the signal, this listener must not keep the process alive: it ends it as the default would, once written.
    if (process.listenerCount(signal) === 0) void written.finally(() => process.kill(process.pid, signal));
    else exitOnlyOnceWritten();
  };
  // Next's own handlers close the server, let running requests finish, then exit; those requests write at once.
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  process.once("beforeExit", () => stop());
}

/** Queues one request's record; never waits for the database and never throws into the request. */
export function recordRequest(record: RequestRecord): void {
  if (!env.REQUEST_LOG_ENABLED) return;
  flushOnShutdown();
  state.rows.push(record);
  if (state.stopping || state.rows.length >= FLUSH_ROWS) {
    void flushRequestLog();
  } else if (!state.timer) {
    state.timer = setTimeout(() => void flushRequestLog(), FLUSH_INTERVAL_MS);
    // A pending flush alone does not keep a process alive; beforeExit writes what it holds.
    state.timer.unref();
  }
}
