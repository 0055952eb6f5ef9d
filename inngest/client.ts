import { Inngest, Middleware, type SendEventBaseOutput } from "inngest";
import { env, inngestCloudMode } from "@/lib/env";

/**
 * Without Inngest keys, sent events never leave the process: they go to the in-process driver, which
 * runs the same function objects. Loaded lazily because the driver itself imports this client.
 */
class InProcessRouting extends Middleware.BaseMiddleware {
  readonly id = "in-process-routing";

  async wrapSendEvent(args: Middleware.WrapSendEventArgs): Promise<SendEventBaseOutput> {
    if (inngestCloudMode) return args.next();
    const { inProcessDriver } = await import("./driver");
    return { ids: inProcessDriver().dispatch(args.events) };
  }
}

export const inngest = new Inngest({
  id: "ticketing",
  isDev: !inngestCloudMode,
  eventKey: env.INNGEST_EVENT_KEY,
  signingKey: env.INNGEST_SIGNING_KEY,
  baseUrl: env.INNGEST_BASE_URL,
  middleware: [InProcessRouting],
});
