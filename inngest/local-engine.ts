import type { EventPayload } from "inngest";

/** Where the client sends events without Inngest keys: the in-process engine, once one has been started. */
export interface LocalEngine {
  dispatch(events: readonly EventPayload[]): string[];
}

// On globalThis because Next.js bundles may each hold their own copy of this module.
const registry = globalThis as typeof globalThis & { __ticketingLocalEngine?: LocalEngine };

export function setLocalEngine(engine: LocalEngine): void {
  registry.__ticketingLocalEngine = engine;
}

export function localEngine(): LocalEngine {
  if (!registry.__ticketingLocalEngine) throw new Error("no in-process Inngest engine is running in this process (see inngest/embedded.ts)");
  return registry.__ticketingLocalEngine;
}
