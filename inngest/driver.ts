import { randomUUID } from "node:crypto";
import { InngestCommHandler, type EventPayload } from "inngest";
import { log } from "@/lib/log";
import { inngest } from "./client";
import { functions } from "./functions";

/** Parallel runs in all; per-key limits (a function's `concurrency` option) keep one key from taking them all. */
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

type AnyFunction = (typeof functions)[number];
type Trigger = { event?: string; cron?: string };

function triggersOf(fn: AnyFunction): Trigger[] {
  const triggers = (fn.opts as { triggers?: Trigger | Trigger[] }).triggers ?? [];
  return Array.isArray(triggers) ? triggers : [triggers];
}

interface QueuedRun {
  start: () => Promise<void>;
  /** The run's concurrency group, when its function limits runs per key. */
  group?: { key: string; limit: number };
}

/**
 * The concurrency group of a run, from its function's `concurrency: { key, limit }` as Inngest applies it.
 * Only keys of the form `event.data.<field>` are understood here; the driver refuses any other.
 */
function groupOf(fn: AnyFunction, event: EventPayload): QueuedRun["group"] {
  const option = (fn.opts as { concurrency?: unknown }).concurrency;
  if (option === undefined) return undefined;
  const { key, limit } = option as { key?: string; limit?: number };
  const field = key?.match(/^event\.data\.([A-Za-z_][A-Za-z0-9_]*)$/)?.[1];
  if (!field || typeof limit !== "number") throw new Error(`in-process driver: unsupported concurrency option of ${fn.id()}`);
  return { key: `${fn.id()}:${String((event.data as Record<string, unknown>)[field])}`, limit };
}

/**
 * Runs the app's Inngest functions inside this process, speaking the SDK's own execution protocol to
 * an `InngestCommHandler` the way the Inngest executor does over HTTP: call, memoize the step the SDK
 * ran, call again with the memoized steps, until the function returns. Runs are in memory only; the
 * state that matters lives in the database, and the sweeper and start-up resume cover lost runs.
 */
export class InProcessDriver {
  private readonly call: (request: LocalRequest) => Promise<LocalResponse>;
  private readonly waiting: QueuedRun[] = [];
  private readonly runningByGroup = new Map<string, number>();
  private running = 0;
  private cronTimer: NodeJS.Timeout | undefined;

  constructor() {
    const handler = new InngestCommHandler({
      frameworkName: "in-process",
      client: inngest,
      functions,
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

  /** Starts one run per matching function for each event; returns the event ids. */
  dispatch(events: readonly EventPayload[]): string[] {
    return events.map((event) => {
      const id = randomUUID();
      const stamped = { ...event, id, ts: Date.now(), data: event.data ?? {} };
      for (const fn of functions) {
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

  /** One tick of the cron schedule: a run of every cron-triggered function. */
  fireCron(): void {
    for (const fn of functions) {
      if (triggersOf(fn).some((t) => t.cron)) {
        this.enqueue(fn, { id: randomUUID(), name: "inngest/scheduled.timer", data: {}, ts: Date.now() });
      }
    }
  }

  private enqueue(fn: AnyFunction, event: EventPayload): void {
    this.waiting.push({ start: () => this.run(fn, event).then(() => undefined), group: groupOf(fn, event) });
    this.pump();
  }

  /** Starts waiting runs in arrival order, passing over those whose group is at its limit. */
  private pump(): void {
    for (let index = 0; index < this.waiting.length && this.running < MAX_CONCURRENT_RUNS; ) {
      const { group } = this.waiting[index]!;
      if (group && (this.runningByGroup.get(group.key) ?? 0) >= group.limit) {
        index++;
        continue;
      }
      this.start(this.waiting.splice(index, 1)[0]!);
    }
  }

  private start({ start, group }: QueuedRun): void {
    this.running++;
    if (group) this.runningByGroup.set(group.key, (this.runningByGroup.get(group.key) ?? 0) + 1);
    void start()
      .catch((error: unknown) => log.error("in-process Inngest run failed", { error: String(error) }))
      .finally(() => {
        this.running--;
        if (group) {
          const left = this.runningByGroup.get(group.key)! - 1;
          if (left) this.runningByGroup.set(group.key, left);
          else this.runningByGroup.delete(group.key);
        }
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
