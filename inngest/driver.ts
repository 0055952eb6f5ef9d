import { randomUUID } from "node:crypto";
import { InngestCommHandler, type EventPayload, type InngestFunction } from "inngest";
import { log } from "@/lib/log";
import { inngest } from "./client";
import { functions as appFunctions } from "./functions";

/**
 * Runs in flight in all, not counting the first run of each concurrency group: a group with nothing
 * running may always start one, so slow keys that fill every slot (8 dead receivers × 8 runs) cannot
 * stall the others. In flight is therefore at most this plus one per group that has work.
 */
const MAX_CONCURRENT_RUNS = 64;
// Each request to the SDK executes one step; a run of the delivery function takes at most 6.
const MAX_REQUESTS_PER_RUN = 50;
const MAX_REQUEST_RETRIES = 3;
// Cron triggers are run on this fixed cadence rather than by parsing their expressions (all are "every minute").
const CRON_INTERVAL_MS = 60_000;

interface LocalRequest {
  fnId: string;
  stepId: string;
  body: unknown;
}

interface LocalResponse {
  status: number;
  body: string;
}

interface OutgoingOp {
  id: string;
  op: string;
  data?: unknown;
  error?: unknown;
}

type AnyFunction = InngestFunction.Any;
type Trigger = { event?: string; cron?: string };

function triggersOf(fn: AnyFunction): Trigger[] {
  const triggers = (fn.opts as { triggers?: Trigger | Trigger[] }).triggers ?? [];
  return Array.isArray(triggers) ? triggers : [triggers];
}

interface QueuedRun {
  fn: AnyFunction;
  event: EventPayload;
  /** Identifies the work asked for: its function, event name and event data. */
  work: string;
  /** Arrival order, so groups are served first come, first served. */
  seq: number;
}

interface Group {
  key: string;
  /** The function's per-key `concurrency` limit; unlimited for a function without one. */
  limit: number;
  running: number;
  waiting: QueuedRun[];
}

/**
 * The concurrency group of a run, from its function's `concurrency: { key, limit }` as Inngest applies it;
 * all runs of a function without that option form one unlimited group. Only keys of the form
 * `event.data.<field>` are understood here; the driver refuses any other.
 */
function groupOf(fn: AnyFunction, event: EventPayload): { key: string; limit: number } {
  const option = (fn.opts as { concurrency?: unknown }).concurrency;
  if (option === undefined) return { key: fn.id(), limit: Infinity };
  const { key, limit } = option as { key?: string; limit?: number };
  const field = key?.match(/^event\.data\.([A-Za-z_][A-Za-z0-9_]*)$/)?.[1];
  if (!field || typeof limit !== "number") throw new Error(`in-process driver: unsupported concurrency option of ${fn.id()}`);
  return { key: `${fn.id()}:${String((event.data as Record<string, unknown>)[field])}`, limit };
}

/** JSON with object keys sorted, so equal event data gives equal text whatever order it was built in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Runs the app's Inngest functions inside this process, speaking the SDK's own execution protocol to
 * an `InngestCommHandler` the way the Inngest executor does over HTTP: call, memoize the step the SDK
 * ran, call again with the memoized steps, until the function returns. Runs are in memory only; the
 * state that matters lives in the database, and the sweeper and start-up resume cover lost runs.
 *
 * An event that asks for work already queued or running (same function, name and data) starts no second
 * run: every function here does all its event asks from database state, so the run in hand covers it.
 * This is what keeps the sweeper's re-announcements of deliveries waiting behind a dead receiver's
 * concurrency limit from piling up in memory.
 */
export class InProcessDriver {
  private readonly functions: readonly AnyFunction[];
  private readonly call: (request: LocalRequest) => Promise<LocalResponse>;
  /** Groups with runs waiting or running; a group is dropped as soon as it has neither. */
  private readonly groups = new Map<string, Group>();
  /** The `work` of every queued and running run. */
  private readonly inHand = new Set<string>();
  private running = 0;
  private arrivals = 0;
  private cronTimer: NodeJS.Timeout | undefined;

  constructor(functions: readonly AnyFunction[] = appFunctions) {
    this.functions = functions;
    const handler = new InngestCommHandler({
      frameworkName: "in-process",
      client: inngest,
      functions: [...functions],
      handler: (request: LocalRequest) => ({
        body: () => request.body,
        headers: () => null,
        method: () => "POST",
        url: () => {
          const url = new URL("http://in-process.invalid/api/inngest");
          url.searchParams.set("fnId", request.fnId);
          url.searchParams.set("stepId", request.stepId);
          return url;
        },
        transformResponse: ({ status, body }: { status: number; body: string }): LocalResponse => ({ status, body }),
      }),
    });
    this.call = handler.createHandler() as (request: LocalRequest) => Promise<LocalResponse>;
  }

  /** Starts one run per matching function for each event (unless one is in hand); returns the event ids. */
  dispatch(events: readonly EventPayload[]): string[] {
    return events.map((event) => {
      const id = randomUUID();
      const stamped = { ...event, id, ts: Date.now(), data: event.data ?? {} };
      for (const fn of this.functions) {
        if (triggersOf(fn).some((t) => t.event === event.name)) this.enqueue(fn, stamped);
      }
      return id;
    });
  }

  /** Fires cron-triggered functions every minute until stopped. */
  startCron(): void {
    if (this.cronTimer) return;
    this.cronTimer = setInterval(() => this.fireCron(), CRON_INTERVAL_MS);
    this.cronTimer.unref();
  }

  /** One tick of the cron schedule: a run of every cron-triggered function not still busy with the last tick. */
  fireCron(): void {
    for (const fn of this.functions) {
      if (triggersOf(fn).some((t) => t.cron)) {
        this.enqueue(fn, { id: randomUUID(), name: "inngest/scheduled.timer", data: {}, ts: Date.now() });
      }
    }
  }

  /** Runs in memory: started and not finished, and waiting for a slot. */
  load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const group of this.groups.values()) waiting += group.waiting.length;
    return { running: this.running, waiting };
  }

  private enqueue(fn: AnyFunction, event: EventPayload): void {
    const work = `${fn.id()}\n${event.name}\n${canonicalJson(event.data)}`;
    if (this.inHand.has(work)) return;
    this.inHand.add(work);
    const { key, limit } = groupOf(fn, event);
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = { key, limit, running: 0, waiting: [] }));
    group.waiting.push({ fn, event, work, seq: this.arrivals++ });
    this.pump();
  }

  /**
   * Starts waiting runs, oldest first, passing over groups at their limit. Past the overall cap only a
   * group with nothing running may start (one run), so every group with work always has a run going.
   */
  private pump(): void {
    for (;;) {
      let next: Group | undefined;
      for (const group of this.groups.values()) {
        const head = group.waiting[0];
        if (!head || group.running >= group.limit) continue;
        if (group.running > 0 && this.running >= MAX_CONCURRENT_RUNS) continue;
        if (!next || head.seq < next.waiting[0]!.seq) next = group;
      }
      if (!next) return;
      this.start(next, next.waiting.shift()!);
    }
  }

  private start(group: Group, { fn, event, work }: QueuedRun): void {
    this.running++;
    group.running++;
    void this.run(fn, event)
      .catch((error: unknown) => log.error("in-process Inngest run failed", { error: String(error) }))
      .finally(() => {
        this.running--;
        group.running--;
        this.inHand.delete(work);
        if (group.running === 0 && group.waiting.length === 0) this.groups.delete(group.key);
        this.pump();
      });
  }

  private async run(fn: AnyFunction, event: EventPayload): Promise<unknown> {
    const fnId = fn.id(inngest.id);
    const runId = randomUUID();
    const steps: Record<string, { type: "data"; data: unknown } | { type: "error"; error: unknown }> = {};
    const stack: string[] = [];
    let planned: string[] = [];
    let attempt = 0;
    for (let requests = 0; requests < MAX_REQUESTS_PER_RUN; requests++) {
      const stepId = planned.shift() ?? "step";
      const response = await this.call({
        fnId,
        stepId,
        body: {
          version: 2,
          event,
          events: [event],
          steps,
          ctx: { run_id: runId, attempt, max_attempts: MAX_REQUEST_RETRIES + 1, stack: { stack, current: stack.length } },
        },
      });
      if (response.status === 200) return JSON.parse(response.body || "null");
      if (response.status === 206) {
        attempt = 0;
        const ops = ([] as OutgoingOp[]).concat(JSON.parse(response.body) as OutgoingOp | OutgoingOp[]);
        for (const op of ops) {
          if (op.op === "StepPlanned") {
            planned.push(op.id);
          } else if (op.op === "StepRun" || op.op === "Step") {
            steps[op.id] = { type: "data", data: op.data ?? null };
            stack.push(op.id);
          } else if (op.op === "StepFailed") {
            steps[op.id] = { type: "error", error: op.error };
            stack.push(op.id);
          } else if (op.op === "StepError") {
            throw new Error(`step ${op.id} of ${fnId} failed: ${JSON.stringify(op.error)}`);
          } else {
            throw new Error(`unsupported step operation ${op.op} in ${fnId}`);
          }
        }
        continue;
      }
      // A failed request (e.g. the database briefly unavailable) is retried like the executor would.
      if (response.status >= 500 && attempt < MAX_REQUEST_RETRIES) {
        attempt++;
        planned = [];
        await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
        continue;
      }
      throw new Error(`${fnId} run ${runId} ended with HTTP ${response.status}: ${response.body.slice(0, 500)}`);
    }
    throw new Error(`${fnId} run ${runId} exceeded ${MAX_REQUESTS_PER_RUN} requests`);
  }
}

// One driver per process, whichever bundle (Next server chunks, CLI, tests) asks first.
const globalForDriver = globalThis as typeof globalThis & { __ticketingInngestDriver?: InProcessDriver };

export function inProcessDriver(): InProcessDriver {
  globalForDriver.__ticketingInngestDriver ??= new InProcessDriver();
  return globalForDriver.__ticketingInngestDriver;
}
