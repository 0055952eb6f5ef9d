import { randomUUID } from "node:crypto";
import { CronExpressionParser } from "cron-parser";
import type { EventPayload, Inngest, InngestFunction } from "inngest";
import { log } from "@/lib/log";
import { ConcurrencySlots, type Slot } from "./concurrency-slots";
import { rulesOf, triggersOf, type DeclaredRules } from "./declared-rules";
import { inProcessTransport, type StepTransport } from "./in-process-transport";
import { acceptCheckpoints, type StepOp } from "./run-checkpoints";

type AnyFunction = InngestFunction.Any;
// As long as Inngest remembers an event id to drop a repeat of it.
const EVENT_ID_MEMORY_MS = 24 * 3_600_000;
type Step = { type: "data"; data: unknown } | { type: "error"; error: unknown };
/** A step's outcome, as a response or a checkpoint reports it: what the next call replays. */
const isStepResult = (op: StepOp) => op.op === "StepRun" || op.op === "Step" || op.op === "StepFailed";

/**
 * Runs the app's Inngest functions inside this process with exactly the rules they declare (triggers,
 * cron expressions, retries, concurrency limits and keys, singleton skip) and Inngest's event-id
 * de-duplication, speaking the SDK's execution protocol the way the Inngest executor does over HTTP,
 * checkpoints included: a call runs step after step, reporting each to the checkpoint API (run-checkpoints.ts),
 * and ends only when the function returns or must wait, so a delivery attempt takes one call, not two.
 * Runs live in memory; the state that matters lives in the database, and start-up resume plus the
 * sweeper cover runs lost with the process.
 */
export class InProcessDriver {
  private readonly rules: Map<AnyFunction, DeclaredRules>;
  private readonly call: StepTransport;
  private readonly seenEventIds = new Map<string, number>();
  private readonly slots = new ConcurrencySlots();
  private readonly heldSingletons = new Set<string>();
  private readonly cronTimers: NodeJS.Timeout[] = [];

  /** `transport` replaces the in-process handler, e.g. with signed requests to the served `/api/inngest` (tests). */
  constructor(
    private readonly client: Inngest.Any,
    private readonly functions: readonly AnyFunction[],
    transport?: StepTransport,
  ) {
    this.rules = new Map(functions.map((fn) => [fn, rulesOf(fn)]));
    this.call = transport ?? inProcessTransport(client, functions);
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
    return this.slots.load();
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
    const slots = concurrency.map(({ key, limit }, i): Slot => ({ group: `${fn.id()}\n${i}\n${key(event)}`, limit }));
    void this.slots.acquire(slots)
      .then(() => this.execute(fn, event, slots))
      .catch((error: unknown) => log.error("in-process Inngest run failed", { fn: fn.id(), error: String(error) }))
      .finally(() => {
        this.slots.release(slots);
        if (held) this.heldSingletons.delete(held);
      });
  }

  /**
   * One run: call, memoize what the SDK reports (in the response, or checkpointed during the call), call again, until
   * the function returns or fails for good.
   */
  private async execute(fn: AnyFunction, event: EventPayload, slots: readonly Slot[]): Promise<unknown> {
    const fnId = fn.id(this.client.id);
    const { maxAttempts } = this.rules.get(fn)!;
    const steps: Record<string, Step> = {};
    const stack: string[] = [];
    const runId = randomUUID();
    // fn_id and qi_id, as Inngest's executor sends them, are what let the SDK checkpoint (only their presence matters here).
    const ctx = { run_id: runId, fn_id: fnId, qi_id: runId, attempt: 0, max_attempts: maxAttempts };
    const memoize = (id: string, step: Step) => ((steps[id] = step), stack.push(id));
    const memoizeResult = (op: StepOp) =>
      memoize(op.id, op.op === "StepFailed" ? { type: "error", error: op.error } : { type: "data", data: op.data ?? null });
    // The run's steps as the SDK checkpoints them during a call.
    const stopCheckpoints = acceptCheckpoints(runId, (ops) => {
      if (!ops.every(isStepResult)) return false;
      ops.forEach(memoizeResult);
      return true;
    });
    let planned: string[] = [];
    try {
      for (;;) {
        const body = { version: 2, event, events: [event], steps, ctx: { ...ctx, stack: { stack, current: stack.length } } };
        const response = await this.call({ fnId, stepId: planned.shift() ?? "step", body });
        const ops = response.status === 206 ? ([] as StepOp[]).concat(JSON.parse(response.body) as StepOp | StepOp[]) : [];
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
          if (isStepResult(op)) memoizeResult(op);
          else if (op.op === "StepPlanned") planned.push(op.id);
          else if (op.op === "Sleep" && !Number.isNaN(Date.parse(op.name ?? ""))) {
            // As on Inngest, a sleeping run holds no concurrency slot.
            this.slots.release(slots);
            await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(op.name!) - Date.now())));
            await this.slots.acquire(slots);
            memoize(op.id, { type: "data", data: null });
          } else throw new Error(`unsupported step operation ${op.op} in ${fnId}`);
        }
      }
    } finally {
      stopCheckpoints();
    }
  }
}
