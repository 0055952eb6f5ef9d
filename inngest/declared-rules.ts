import { CronExpressionParser } from "cron-parser";
import type { EventPayload, InngestFunction } from "inngest";

type AnyFunction = InngestFunction.Any;
interface Options {
  triggers?: { event?: string; cron?: string } | { event?: string; cron?: string }[];
  retries?: number;
  concurrency?: unknown;
  singleton?: unknown;
}

/** One concurrency constraint: at most `limit` runs at once per value of `key`. */
export interface ConcurrencyRule {
  limit: number;
  key: (event: EventPayload) => string;
}

export interface DeclaredRules {
  /** Every constraint the function declares (Inngest allows two); a run starts when each has room for it. */
  concurrency: ConcurrencyRule[];
  /** Runs with the same key skip while one is queued, sleeping or running (`singleton: { mode: "skip" }`). */
  singleton?: (event: EventPayload) => string;
  maxAttempts: number;
}

/** The options this driver honours; a function declaring any other makes it refuse to start. */
const HONOURED = new Set(["id", "name", "triggers", "retries", "concurrency", "singleton"]);
// Inngest's default when a function declares no `retries`.
const DEFAULT_RETRIES = 3;
// Inngest takes at most this many concurrency constraints on a function.
const MAX_CONCURRENCY_RULES = 2;

const optionsOf = (fn: AnyFunction) => fn.opts as Options;
export const triggersOf = (fn: AnyFunction) => [optionsOf(fn).triggers ?? []].flat();
const refuse = (fn: AnyFunction, option: string): never => {
  throw new Error(`in-process Inngest driver cannot honour ${option} of function ${fn.id()}`);
};

/** A key expression of the form `event.data.<field>` (the only form used here), evaluated against the event. */
function keyOf(fn: AnyFunction, option: string, expression: unknown): (event: EventPayload) => string {
  const field = typeof expression === "string" && expression.match(/^event\.data\.([A-Za-z_]\w*)$/)?.[1];
  if (!field) return refuse(fn, `${option}.key ${JSON.stringify(expression)}`);
  return (event) => String((event.data as Record<string, unknown>)[field]);
}

/**
 * What a function declares, checked up front: the in-process driver honours these options exactly and
 * throws, naming the option, for anything else (so it never silently differs from Inngest).
 */
export function rulesOf(fn: AnyFunction): DeclaredRules {
  const opts = optionsOf(fn);
  for (const option of Object.keys(opts)) if (!HONOURED.has(option)) refuse(fn, option);
  for (const { event, cron, ...other } of triggersOf(fn)) {
    if (Object.keys(other).length) refuse(fn, `trigger option ${Object.keys(other).join(", ")}`);
    if (cron) CronExpressionParser.parse(cron);
    else if (!event) refuse(fn, "a trigger without event or cron");
  }
  const declared = opts.concurrency === undefined ? [] : [opts.concurrency].flat();
  if (declared.length > MAX_CONCURRENCY_RULES) refuse(fn, `more than ${MAX_CONCURRENCY_RULES} concurrency constraints`);
  const concurrency = declared.map((constraint): ConcurrencyRule => {
    if (typeof constraint === "number") return { limit: constraint, key: () => "" };
    const { key, limit, scope, ...rest } = constraint as { key?: string; limit?: number; scope?: string };
    if (typeof limit !== "number" || (scope && scope !== "fn") || Object.keys(rest).length) refuse(fn, "concurrency");
    return { limit: limit!, key: key === undefined ? () => "" : keyOf(fn, "concurrency", key) };
  });
  let singleton: ((event: EventPayload) => string) | undefined;
  if (opts.singleton !== undefined) {
    const { key, mode } = opts.singleton as { key?: string; mode?: string };
    if (mode !== "skip") refuse(fn, `singleton.mode ${JSON.stringify(mode)}`);
    singleton = key === undefined ? () => "" : keyOf(fn, "singleton", key);
  }
  return { concurrency, singleton, maxAttempts: (opts.retries ?? DEFAULT_RETRIES) + 1 };
}

