import http, { type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export interface ReceivedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  /** The raw body exactly as received. */
  body: string;
  receivedAt: number;
}

/** What the receiver does with the n-th request (0-based): answer, or never answer ("hang"). */
export type Script = (
  index: number,
  request: ReceivedRequest,
) => { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | "hang";

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records every request and answers as scripted. */
export async function startReceiver(script: Script): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const hanging: ServerResponse[] = [];
  const server = http.createServer((req, res) => {
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
      setTimeout(() => {
        res.writeHead(answer.status, { "Content-Type": "text/plain", ...answer.headers });
        res.end(answer.body ?? "");
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
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
export function useReceivers(): (script: Script) => Promise<Receiver> {
  const open: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });
  return async (script) => {
    const receiver = await startReceiver(script);
    open.push(receiver);
    return receiver;
  };
}
