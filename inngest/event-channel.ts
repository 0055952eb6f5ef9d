import { sql } from "drizzle-orm";
import type { EventPayload } from "inngest";
import { databaseHandle, db } from "@/db/client";
import { statementBatcher } from "@/lib/webhooks/statement-batcher";

/** The PostgreSQL NOTIFY channel that carries sent events from the web workers to `npm start`'s delivery worker. */
const EVENT_CHANNEL = "ticketing_inngest_events";
// PostgreSQL refuses NOTIFY payloads of 8000 bytes or more.
const MAX_PAYLOAD_BYTES = 7_000;

/** Packs events into NOTIFY payloads (JSON arrays), each under PostgreSQL's limit. */
function payloads(events: readonly EventPayload[]): string[] {
  const packed: string[] = [];
  let batch: string[] = [];
  let bytes = 2;
  for (const event of events) {
    const json = JSON.stringify(event);
    if (batch.length && bytes + json.length + 1 > MAX_PAYLOAD_BYTES) {
      packed.push(`[${batch.join(",")}]`);
      batch = [];
      bytes = 2;
    }
    batch.push(json);
    bytes += Buffer.byteLength(json) + 1;
  }
  if (batch.length) packed.push(`[${batch.join(",")}]`);
  return packed;
}

/**
 * The announcements of the moment in one statement, their events packed together (see statementBatcher): under a
 * rush of orders with an integration, one NOTIFY statement and notification per batch of orders instead of each.
 */
const publishTogether = statementBatcher<readonly EventPayload[], void>(
  async (announcements) => {
    const notifications = payloads(announcements.flat()).map((payload) => sql`pg_notify(${EVENT_CHANNEL}, ${payload})`);
    await db.execute(sql`select ${sql.join(notifications, sql`, `)}`);
    return announcements.map(() => undefined);
  },
  { maxBatch: 64, inFlight: 1 },
);

/**
 * Sends events to the delivery worker, in one statement with the other announcements of the moment, however many
 * payloads. A notification sent while the worker is not listening is lost; the worker's resume on (re)connecting
 * and the sweeper find its deliveries.
 */
export async function publishEvents(events: readonly EventPayload[]): Promise<void> {
  if (events.length) await publishTogether(events);
}

/**
 * Receives the events published by every process on the database. `onListening` runs each time the listening
 * connection is (re)established, after LISTEN: whatever was committed before it is for the caller to pick up.
 */
export async function subscribeToEvents(onEvents: (events: EventPayload[]) => void, onListening: () => void): Promise<void> {
  const { listen } = databaseHandle();
  if (!listen) throw new Error("the delivery worker needs PostgreSQL (LISTEN/NOTIFY)");
  await listen(EVENT_CHANNEL, (payload) => onEvents(JSON.parse(payload) as EventPayload[]), onListening);
}
