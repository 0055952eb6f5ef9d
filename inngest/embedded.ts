import { inngest } from "./client";
import { InProcessDriver } from "./driver";
import { functions } from "./functions";
import { setLocalEngine } from "./local-engine";

// One engine per process, whichever bundle (Next server chunks, CLI, tests) asks first.
const globalForDriver = globalThis as typeof globalThis & { __ticketingInngestDriver?: InProcessDriver };

/** The embedded engine (no Inngest keys): created on first use, and from then on the client's event destination. */
export function inProcessDriver(): InProcessDriver {
  if (!globalForDriver.__ticketingInngestDriver) {
    globalForDriver.__ticketingInngestDriver = new InProcessDriver(inngest, functions);
    setLocalEngine(globalForDriver.__ticketingInngestDriver);
  }
  return globalForDriver.__ticketingInngestDriver;
}
