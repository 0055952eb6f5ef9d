import http from "node:http";
import { expect } from "vitest";
import { ApiError, type ErrorCode } from "@/lib/http/errors";

/** A response read to the end: what the checks below need from fetch or from a raw request. */
export interface HttpResult {
  status: number;
  header(name: string): string | null;
  text: string;
}

export async function readResult(response: Response): Promise<HttpResult> {
  const text = await response.text();
  return { status: response.status, header: (name) => response.headers.get(name), text };
}

/** One call with a bearer credential; `json` is sent serialized, `text` as it is (both as application/json). */
export async function callApi(
  baseUrl: string,
  credential: string,
  method: string,
  path: string,
  init: { json?: unknown; text?: string; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  const body = init.text ?? (init.json === undefined ? undefined : JSON.stringify(init.json));
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${credential}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...init.headers },
    body,
  });
  return readResult(response);
}

export { credentialsSignIn, sessionCookie } from "./sign-in";

/** Signs the session out through Auth.js's sign-out endpoint, as its own sign-out page posts it. */
export async function authSignOut(baseUrl: string, cookie: string): Promise<Response> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`, { headers: { Cookie: cookie } });
  const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return fetch(`${baseUrl}/api/auth/signout`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: [cookie, csrfCookie].filter(Boolean).join("; ") },
    body: new URLSearchParams({ csrfToken }).toString(),
  });
}

export interface ErrorBody {
  error: string;
  code: ErrorCode;
  trace_id: string;
  details?: { path: string; message: string }[];
}

/**
 * The error body of a non-2xx response: exactly `{ error, code, trace_id, details? }` in JSON, a code the
 * API defines for that status, and X-Trace-Id repeating trace_id.
 */
export function expectErrorBody(result: HttpResult, label = ""): ErrorBody {
  const where = `${label} → ${result.status} ${result.text.slice(0, 300)}`;
  expect(result.status >= 200 && result.status < 300, where).toBe(false);
  expect(result.header("content-type"), where).toMatch(/^application\/json/);
  const body = JSON.parse(result.text) as ErrorBody;
  expect(Object.keys(body).sort(), where).toEqual(body.details === undefined ? ["code", "error", "trace_id"] : ["code", "details", "error", "trace_id"]);
  expect(typeof body.error, where).toBe("string");
  expect(typeof body.code, where).toBe("string");
  expect(body.trace_id, where).toMatch(/^[0-9a-f]{24}$/);
  expect(result.header("x-trace-id"), where).toBe(body.trace_id);
  expect(new ApiError(body.code, "").status, `${where}: code ${body.code} belongs to another status`).toBe(result.status);
  if (body.details !== undefined) {
    expect(Array.isArray(body.details) && body.details.length > 0, where).toBe(true);
    for (const detail of body.details) {
      expect(Object.keys(detail).sort(), where).toEqual(["message", "path"]);
      expect(typeof detail.path === "string" && typeof detail.message === "string", where).toBe(true);
    }
  }
  return body;
}

/** The contract for any response to any input: never a 5xx, and a non-2xx carries the error body. */
export function expectErrorContract(result: HttpResult, label = ""): ErrorBody | null {
  expect(result.status, `${label} → ${result.status} ${result.text.slice(0, 300)}`).toBeLessThan(500);
  return result.status >= 200 && result.status < 300 ? null : expectErrorBody(result, label);
}

/** A response that must be this error: status, code and the error body. */
export function expectApiError(result: HttpResult, status: number, code: ErrorCode, label = ""): ErrorBody {
  expect(result.status, `${label} → ${result.text.slice(0, 300)}`).toBe(status);
  const body = expectErrorBody(result, label);
  expect(body.code, label).toBe(code);
  return body;
}

/**
 * One request on a connection of its own (no pooling), with any bytes as the body, a chunked body, and
 * any header: for bodies fetch would not send as given, and for requests after which the server may close
 * the connection (an oversized body is refused before it has all arrived).
 */
export function rawRequest(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: Buffer | string; chunks?: Iterable<Buffer> },
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method, headers: init.headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        // Whatever of the body is left unsent goes with the connection: it is this request's alone.
        request.destroy();
        const headers = response.headers;
        resolve({
          status: response.statusCode ?? 0,
          header: (name) => {
            const value = headers[name.toLowerCase()];
            return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
          },
          text: Buffer.concat(chunks).toString("utf8"),
        });
      });
      response.on("error", reject);
    });
    // The server may answer and close before the whole body is written; the answer is what counts.
    let answered = false;
    request.on("response", () => (answered = true));
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (init.chunks) {
      const iterator = init.chunks[Symbol.iterator]();
      const pump = () => {
        for (let next = iterator.next(); !next.done; next = iterator.next()) {
          if (request.destroyed || answered) return;
          if (!request.write(next.value)) {
            request.once("drain", pump);
            return;
          }
        }
        request.end();
      };
      pump();
    } else {
      request.end(init.body);
    }
  });
}
