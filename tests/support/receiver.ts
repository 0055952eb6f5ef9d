import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export interface ReceivedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  /** The raw body exactly as received. */
  body: string;
  receivedAt: number;
}

/** Takes over the response completely (misbehaving receivers: see hostile-receivers.ts). */
export type Respond = (res: ServerResponse) => void;

/** What the receiver does with the n-th request (0-based): answer, never answer ("hang"), or respond its own way. */
export type Script = (
  index: number,
  request: ReceivedRequest,
) => { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | "hang" | Respond;

export interface ReceiverOptions {
  /** Serve HTTPS with this key and certificate instead of plain HTTP. */
  tls?: { key: string; cert: string };
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records every request and answers as scripted. */
export async function startReceiver(script: Script, options: ReceiverOptions = {}): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const hanging: ServerResponse[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const received = { method: req.method ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), receivedAt: Date.now() };
      const index = requests.push(received) - 1;
      const answer = script(index, received);
      if (answer === "hang") {
        hanging.push(res);
        return;
      }
      if (typeof answer === "function") {
        answer(res);
        return;
      }
      setTimeout(() => {
        res.writeHead(answer.status, { "Content-Type": "text/plain", ...answer.headers });
        res.end(answer.body ?? "");
      }, answer.delayMs ?? 0);
    });
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}/hooks`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A URL on 127.0.0.1 where nothing listens (connection refused). */
export async function refusingUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}

/** startReceiver for one test; every receiver is closed after the test. */
export function useReceivers(): (script: Script, options?: ReceiverOptions) => Promise<Receiver> {
  const open: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });
  return async (script, options) => {
    const receiver = await startReceiver(script, options);
    open.push(receiver);
    return receiver;
  };
}
