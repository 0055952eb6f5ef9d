import { sql } from "drizzle-orm";
import type { EventPayload } from "inngest";
import { databaseHandle, db } from "@/db/client";

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
 * Sends events to the delivery worker: one statement, however many payloads. A notification sent while the
 * worker is not listening is lost; the worker's resume on (re)connecting and the sweeper find its deliveries.
 */
export async function publishEvents(events: readonly EventPayload[]): Promise<void> {
  if (events.length === 0) return;
  const notifications = payloads(events).map((payload) => sql`pg_notify(${EVENT_CHANNEL}, ${payload})`);
  await db.execute(sql`select ${sql.join(notifications, sql`, `)}`);
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
