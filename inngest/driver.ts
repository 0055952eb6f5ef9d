import { randomUUID } from "node:crypto";
import { CronExpressionParser } from "cron-parser";
import { InngestCommHandler, type EventPayload, type Inngest, type InngestFunction } from "inngest";
import { log } from "@/lib/log";

type AnyFunction = InngestFunction.Any;
type Step = { type: "data"; data: unknown } | { type: "error"; error: unknown };
interface Op {
  id: string;
  op: string;
  name?: string;
  data?: unknown;
  error?: unknown;
}
interface Options {
  triggers?: { event?: string; cron?: string } | { event?: string; cron?: string }[];
  retries?: number;
  concurrency?: unknown;
  singleton?: unknown;
}
interface LocalRequest {
  fnId: string;
  stepId: string;
  body: unknown;
}
interface Waiter {
  group: string;
  limit: number;
  go: () => void;
}

/** The options this driver honours; a function declaring any other makes it refuse to start. */
const HONOURED = new Set(["id", "name", "triggers", "retries", "concurrency", "singleton"]);
// Inngest's own defaults: 3 retries of a failed step, event ids de-duplicated for 24 hours.
const DEFAULT_RETRIES = 3;
const EVENT_ID_MEMORY_MS = 24 * 3_600_000;

const optionsOf = (fn: AnyFunction) => fn.opts as Options;
const triggersOf = (fn: AnyFunction) => [optionsOf(fn).triggers ?? []].flat();
const refuse = (fn: AnyFunction, option: string): never => {
  throw new Error(`in-process Inngest driver cannot honour ${option} of function ${fn.id()}`);
};

/** A key expression of the form `event.data.<field>` (the only form used here), evaluated against the event. */
function keyOf(fn: AnyFunction, option: string, expression: unknown): (event: EventPayload) => string {
  const field = typeof expression === "string" && expression.match(/^event\.data\.([A-Za-z_]\w*)$/)?.[1];
  if (!field) return refuse(fn, `${option}.key ${JSON.stringify(expression)}`);
  return (event) => String((event.data as Record<string, unknown>)[field]);
}

/** Checks every declared option up front and returns how runs of this function are grouped and de-duplicated. */
function rulesOf(fn: AnyFunction) {
  const opts = optionsOf(fn);
  for (const option of Object.keys(opts)) if (!HONOURED.has(option)) refuse(fn, option);
  for (const { event, cron, ...other } of triggersOf(fn)) {
    if (Object.keys(other).length) refuse(fn, `trigger option ${Object.keys(other).join(", ")}`);
    if (cron) CronExpressionParser.parse(cron);
    else if (!event) refuse(fn, "a trigger without event or cron");
  }
  let concurrency = { limit: Infinity, key: (_: EventPayload) => "" };
  if (typeof opts.concurrency === "number") concurrency.limit = opts.concurrency;
  else if (opts.concurrency !== undefined) {
    const { key, limit, scope, ...rest } = opts.concurrency as { key?: string; limit?: number; scope?: string };
    if (typeof limit !== "number" || (scope && scope !== "fn") || Object.keys(rest).length) refuse(fn, "concurrency");
    concurrency = { limit: limit!, key: key === undefined ? () => "" : keyOf(fn, "concurrency", key) };
  }
  let singleton: ((event: EventPayload) => string) | undefined;
  if (opts.singleton !== undefined) {
    const { key, mode } = opts.singleton as { key?: string; mode?: string };
    if (mode !== "skip") refuse(fn, `singleton.mode ${JSON.stringify(mode)}`);
    singleton = key === undefined ? () => "" : keyOf(fn, "singleton", key);
  }
  return { concurrency, singleton, maxAttempts: (opts.retries ?? DEFAULT_RETRIES) + 1 };
}

/**
 * Runs the app's Inngest functions inside this process with exactly the rules they declare (triggers,
 * cron expressions, retries, concurrency limit and key, singleton skip) and Inngest's event-id
 * de-duplication, speaking the SDK's execution protocol the way the Inngest executor does over HTTP.
 * Runs live in memory; the state that matters lives in the database, and start-up resume plus the
 * sweeper cover runs lost with the process.
 */
export class InProcessDriver {
  private readonly rules: Map<AnyFunction, ReturnType<typeof rulesOf>>;
  private readonly call: (request: LocalRequest) => Promise<{ status: number; body: string }>;
  private readonly seenEventIds = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  private readonly runningPerGroup = new Map<string, number>();
  private readonly heldSingletons = new Set<string>();
  private readonly cronTimers: NodeJS.Timeout[] = [];
  private running = 0;

  constructor(
    private readonly client: Inngest.Any,
    private readonly functions: readonly AnyFunction[],
  ) {
    this.rules = new Map(functions.map((fn) => [fn, rulesOf(fn)]));
    const handler = new InngestCommHandler({
      frameworkName: "in-process",
      client,
      functions: [...functions],
      handler: (request: LocalRequest) => ({
        body: () => request.body,
        headers: () => null,
        method: () => "POST",
        url: () => new URL(`http://in-process.invalid/api/inngest?${new URLSearchParams({ fnId: request.fnId, stepId: request.stepId })}`),
        transformResponse: ({ status, body }: { status: number; body: string }) => ({ status, body }),
      }),
    });
    this.call = handler.createHandler() as typeof this.call;
  }

  /** Starts a run per matching function for each event not seen before; returns the events' ids as kept. */
  dispatch(events: readonly EventPayload[]): string[] {
    const now = Date.now();
    for (const [id, seenAt] of this.seenEventIds) if (seenAt > now - EVENT_ID_MEMORY_MS) break; else this.seenEventIds.delete(id);
    return events.map((sent) => {
      const event = { ...sent, id: sent.id ?? randomUUID(), ts: sent.ts ?? now, data: sent.data ?? {} };
      if (this.seenEventIds.has(event.id)) return event.id;
      this.seenEventIds.set(event.id, now);
      for (const fn of this.functions) if (triggersOf(fn).some((t) => t.event === event.name)) this.enqueue(fn, event);
      return event.id;
    });
  }

  /** Schedules every cron trigger by its expression until stopped. */
  startCron(): void {
    if (this.cronTimers.length) return;
    for (const fn of this.functions) for (const { cron } of triggersOf(fn)) if (cron) this.scheduleCron(fn, cron);
  }

  stopCron(): void {
    this.cronTimers.splice(0).forEach(clearTimeout);
  }

  /** Fires every cron trigger now, as "invoke" in Inngest's dev server does (tests, manual runs). */
  fireCron(): void {
    for (const fn of this.functions) if (triggersOf(fn).some((t) => t.cron)) this.enqueue(fn, this.timerEvent());
  }

  load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private scheduleCron(fn: AnyFunction, cron: string): void {
    const delay = CronExpressionParser.parse(cron).next().getTime() - Date.now();
    const timer = setTimeout(() => {
      this.cronTimers.splice(this.cronTimers.indexOf(timer), 1);
      this.enqueue(fn, this.timerEvent());
      this.scheduleCron(fn, cron);
    }, delay);
    timer.unref();
    this.cronTimers.push(timer);
  }

  private timerEvent(): EventPayload {
    return { id: randomUUID(), name: "inngest/scheduled.timer", data: {}, ts: Date.now() };
  }

  private enqueue(fn: AnyFunction, event: EventPayload): void {
    const { concurrency, singleton } = this.rules.get(fn)!;
    const held = singleton && `${fn.id()}\n${singleton(event)}`;
    if (held && this.heldSingletons.has(held)) return;
    if (held) this.heldSingletons.add(held);
    const slot = { group: `${fn.id()}\n${concurrency.key(event)}`, limit: concurrency.limit };
    void this.acquire(slot)
      .then(() => this.execute(fn, event, slot))
      .catch((error: unknown) => log.error("in-process Inngest run failed", { fn: fn.id(), error: String(error) }))
      .finally(() => {
        this.release(slot.group);
        if (held) this.heldSingletons.delete(held);
      });
  }

  /** Resolves when the run may execute under its concurrency key; waiters start in arrival order. */
  private acquire(slot: { group: string; limit: number }): Promise<void> {
    return new Promise((go) => {
      this.waiting.push({ ...slot, go });
      this.pump();
    });
  }

  private release(group: string): void {
    this.running--;
    const left = this.runningPerGroup.get(group)! - 1;
    if (left) this.runningPerGroup.set(group, left);
    else this.runningPerGroup.delete(group);
    this.pump();
  }

  private pump(): void {
    for (let i = 0; i < this.waiting.length; ) {
      const waiter = this.waiting[i]!;
      const busy = this.runningPerGroup.get(waiter.group) ?? 0;
      if (busy >= waiter.limit) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.running++;
      this.runningPerGroup.set(waiter.group, busy + 1);
      waiter.go();
    }
  }

  /** One run: call, memoize what the SDK reports, call again, until the function returns or fails for good. */
  private async execute(fn: AnyFunction, event: EventPayload, slot: { group: string; limit: number }): Promise<unknown> {
    const fnId = fn.id(this.client.id);
    const { maxAttempts } = this.rules.get(fn)!;
    const steps: Record<string, Step> = {};
    const stack: string[] = [];
    const ctx = { run_id: randomUUID(), attempt: 0, max_attempts: maxAttempts };
    const memoize = (id: string, step: Step) => ((steps[id] = step), stack.push(id));
    let planned: string[] = [];
    for (;;) {
      const body = { version: 2, event, events: [event], steps, ctx: { ...ctx, stack: { stack, current: stack.length } } };
      const response = await this.call({ fnId, stepId: planned.shift() ?? "step", body });
      const ops = response.status === 206 ? ([] as Op[]).concat(JSON.parse(response.body) as Op | Op[]) : [];
      if (response.status === 200) return JSON.parse(response.body || "null");
      if (ops.some((op) => op.op === "RunComplete")) return ops.find((op) => op.op === "RunComplete")!.data;
      const retry = response.status === 500 || ops.some((op) => op.op === "StepError");
      if (retry && ctx.attempt + 1 < maxAttempts) {
        ctx.attempt++;
        planned = [];
        await new Promise((resolve) => setTimeout(resolve, 1000 * ctx.attempt));
        continue;
      }
      if (response.status !== 206 || retry) throw new Error(`${fnId} failed with HTTP ${response.status}: ${response.body.slice(0, 500)}`);
      ctx.attempt = 0;
      for (const op of ops) {
        if (op.op === "StepRun" || op.op === "Step") memoize(op.id, { type: "data", data: op.data ?? null });
        else if (op.op === "StepFailed") memoize(op.id, { type: "error", error: op.error });
        else if (op.op === "StepPlanned") planned.push(op.id);
        else if (op.op === "Sleep" && !Number.isNaN(Date.parse(op.name ?? ""))) {
          // As on Inngest, a sleeping run holds no concurrency slot.
          this.release(slot.group);
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(op.name!) - Date.now())));
          await this.acquire(slot);
          memoize(op.id, { type: "data", data: null });
        } else throw new Error(`unsupported step operation ${op.op} in ${fnId}`);
      }
    }
  }
}
