import http from "node:http";

/**
 * The benchmarks' HTTP client: node:http over one keep-alive agent, a load generator that leaves the cores to
 * the server under test. `fetch` (undici with WHATWG streams) spent 0.2–0.3 ms more CPU per request here, which
 * on this 2-core machine came out of the same cores as the server's and capped the faster side of every
 * comparison (the bare server, a second web worker) first.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

export interface BenchResponse {
  status: number;
  body: Buffer;
}

/**
 * One request. A GET whose kept-alive socket the server closed as it was sent (the server's idle timeout racing the
 * request: ECONNRESET on a reused socket, seen once in a full run after a pause between cases) is sent again on a new
 * one, as Node's documentation of `request.reusedSocket` advises; the server never saw it.
 */
export function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<BenchResponse> {
  const method = options.method ?? "GET";
  const payload = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers = payload ? { ...options.headers, "Content-Length": String(payload.length) } : options.headers;
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      if (method === "GET" && outgoing.reusedSocket && error.code === "ECONNRESET") request(url, options).then(resolve, reject);
      else reject(error);
    });
    outgoing.end(payload);
  });
}

/** A GET that must answer 200; its body is read and dropped. */
export async function keepAliveGet(url: string, headers: Record<string, string>): Promise<void> {
  const response = await request(url, { headers });
  if (response.status !== 200) throw new Error(`${url} → ${response.status} ${response.body.toString("utf8")}`);
}
