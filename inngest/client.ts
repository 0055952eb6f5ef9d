import { randomUUID } from "node:crypto";
import { Inngest, Middleware, type SendEventBaseOutput } from "inngest";
import { deliveriesInWorker, env, inngestCloudMode } from "@/lib/env";
import { publishEvents } from "./event-channel";
import { localEngine } from "./local-engine";
import { answerCheckpoint } from "./run-checkpoints";

/**
 * Without Inngest keys, sent events go to the embedded engine: the one in this process, or (web workers of
 * `npm start` on PostgreSQL) the delivery worker's, through the database, as Inngest's event API would take them.
 */
class InProcessRouting extends Middleware.BaseMiddleware {
  readonly id = "in-process-routing";

  async wrapSendEvent(args: Middleware.WrapSendEventArgs): Promise<SendEventBaseOutput> {
    if (inngestCloudMode) return args.next();
    if (!deliveriesInWorker) return { ids: localEngine().dispatch(args.events) };
    const events = args.events.map((event) => ({ ...event, id: event.id ?? randomUUID() }));
    await publishEvents(events);
    return { ids: events.map((event) => event.id) };
  }
}

/**
 * Inngest's API as the SDK calls it without Inngest keys: the checkpoints of the runs an engine of this process
 * executes are answered here (run-checkpoints.ts); any other call goes out as it would.
 */
const embeddedApi: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input);
  return answerCheckpoint(url.pathname, String(init?.body ?? "")) ?? fetch(input, init);
};

export const inngest = new Inngest({
  id: "ticketing",
  isDev: !inngestCloudMode,
  eventKey: env.INNGEST_EVENT_KEY,
  signingKey: env.INNGEST_SIGNING_KEY,
  baseUrl: env.INNGEST_BASE_URL,
  fetch: inngestCloudMode ? undefined : embeddedApi,
  middleware: [InProcessRouting],
});
