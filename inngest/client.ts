import { Inngest, Middleware, type SendEventBaseOutput } from "inngest";
import { env, inngestCloudMode } from "@/lib/env";
import { localEngine } from "./local-engine";

/** Without Inngest keys, sent events never leave the process: the in-process engine runs them. */
class InProcessRouting extends Middleware.BaseMiddleware {
  readonly id = "in-process-routing";

  async wrapSendEvent(args: Middleware.WrapSendEventArgs): Promise<SendEventBaseOutput> {
    if (inngestCloudMode) return args.next();
    return { ids: localEngine().dispatch(args.events) };
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
