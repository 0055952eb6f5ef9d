import { and, isNotNull, isNull } from "drizzle-orm";
import { db } from "@/db/client";
import { webhookIntegrations } from "@/db/schema";
import type { DeliveryState } from "@/inngest/events";

/**
 * Which integrations are failing (`failing_since`, kept by each attempt's record in lib/webhooks/attempt.ts), as this
 * process last read them: announcing a delivery names its lane by it (inngest/events.ts), so a failing receiver's
 * deliveries share a few runs between them instead of taking their integration's full share of the delivery worker.
 * Read at most four times a second, for every organization at once (like the sweeper, this is the system's own view,
 * not an organization's), so announcing an order's deliveries costs no statement of its own. An integration that
 * starts or stops failing is seen here within a quarter of a second, and at once by the process that recorded the
 * attempt.
 */
const REREAD_AFTER_MS = 250;

interface View {
  ids: Set<string>;
  readAt: number;
  reading?: Promise<Set<string>>;
}

// On globalThis because Next.js bundles may each hold their own copy of this module.
const registry = globalThis as typeof globalThis & { __ticketingFailingIntegrations?: View };
const view = (registry.__ticketingFailingIntegrations ??= { ids: new Set(), readAt: -Infinity });

async function read(): Promise<Set<string>> {
  const rows = await db
    .select({ id: webhookIntegrations.id })
    .from(webhookIntegrations)
    .where(and(isNotNull(webhookIntegrations.failingSince), isNull(webhookIntegrations.deletedAt)));
  return new Set(rows.map((row) => row.id));
}

/** The ids of the failing integrations, at most REREAD_AFTER_MS old. */
async function failingIntegrationIds(): Promise<ReadonlySet<string>> {
  if (performance.now() - view.readAt < REREAD_AFTER_MS) return view.ids;
  view.reading ??= read()
    .then((ids) => {
      view.ids = ids;
      view.readAt = performance.now();
      return ids;
    })
    // Unread, the last view still names a lane for every delivery: the announcement itself is what matters.
    .catch(() => view.ids)
    .finally(() => (view.reading = undefined));
  return view.reading;
}

/** The deliveries' states, each marked with whether its integration is failing: what announcing them needs. */
export async function withIntegrationHealth(states: Promise<DeliveryState[]>): Promise<DeliveryState[]> {
  const [announced, failing] = await Promise.all([states, failingIntegrationIds()]);
  return announced.map((state) => ({ ...state, failing: failing.has(state.integrationId) }));
}

/** What an attempt this process made says of its integration's health, before the next read. */
export function noteIntegrationHealth(integrationId: string, succeeded: boolean): void {
  if (succeeded) view.ids.delete(integrationId);
  else view.ids.add(integrationId);
}
