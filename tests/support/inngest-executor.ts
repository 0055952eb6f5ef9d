import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { EventPayload } from "inngest";
import type { StepRequest, StepTransport } from "@/inngest/in-process-transport";
import { answerCheckpoint } from "@/inngest/run-checkpoints";

export const SIGNING_KEY = `signkey-test-${"ab".repeat(32)}`;

/** JSON with keys sorted at every level: the form the SDK signs and verifies. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** What the Inngest executor sends: the body signed as `t=<ts>&s=<hex HMAC(key without prefix, body + ts)>`. */
export function executorRequest(fnId: string, body: unknown, signingKey = SIGNING_KEY, stepId = "step"): Request {
  const text = canonicalJson(body);
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", signingKey.replace(/^signkey-\w+-/, "")).update(text).update(ts).digest("hex");
  return new Request(`http://127.0.0.1/api/inngest?${new URLSearchParams({ fnId, stepId })}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Inngest-Signature": `t=${ts}&s=${signature}` },
    body: text,
  });
}

type Route = { POST: (request: never, context: undefined) => Promise<Response> };

/** Step requests signed and sent to the served `/api/inngest` route, as Inngest's executor sends them. */
export function servedTransport(route: Route): StepTransport {
  return async ({ fnId, stepId, body }: StepRequest) => {
    const response = await route.POST(executorRequest(fnId, body, SIGNING_KEY, stepId) as never, undefined);
    return { status: response.status, body: await response.text() };
  };
}

/**
 * Inngest's event API (`POST /e/<key>`) on 127.0.0.1, handing every event sent to the app to `dispatch`, and its
 * checkpoint API (`POST /v1/checkpoint/:runId/async`), handing a run's steps to the engine that runs it here.
 */
export async function startEventApi(
  dispatch: (events: EventPayload[]) => string[],
): Promise<{ url: string; close(): Promise<void>; checkpoints(): number }> {
  let checkpointed = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const checkpoint = answerCheckpoint(new URL(req.url!, "http://127.0.0.1").pathname, Buffer.concat(chunks).toString("utf8"));
      if (checkpoint) {
        checkpointed++;
        res.writeHead(checkpoint.status, { "Content-Type": "application/json" }).end(await checkpoint.text());
        return;
      }
      const events = [JSON.parse(Buffer.concat(chunks).toString("utf8"))].flat() as EventPayload[];
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ ids: dispatch(events), status: 200 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
    checkpoints: () => checkpointed,
  };
}
