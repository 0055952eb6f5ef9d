import { z } from "zod";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { hasScope, type Scope } from "@/lib/auth/scopes";
import { resolveDashboardPrincipal } from "@/lib/auth/dashboard-principal";
import { log } from "@/lib/log";
import { apiErrorFromDatabase } from "./db-errors";
import { ApiError, apiErrorResponse, newTraceId, type ErrorDetail } from "./errors";
import { withIdempotency } from "./idempotency";
import { checkRateLimit, rateLimitHeaders } from "./rate-limit";

export const MAX_BODY_BYTES = 1024 * 1024;
const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];

export interface Principal {
  organizationId: string;
  apiKeyId?: string;
  userId?: string;
}

/** Who may call an endpoint: an `sk_` key with a scope, or a dashboard user (token or session). */
export type Access = { scope: Scope } | { dashboard: true };

export interface RequestContext<P> {
  request: Request;
  params: P;
  traceId: string;
  principal: Principal;
  /** The query string validated by a schema; unknown parameters are ignored. */
  query<S extends z.ZodType>(schema: S): z.output<S>;
  /** The JSON body validated by a schema (use strict objects: unknown fields are refused). */
  body<S extends z.ZodType>(schema: S): z.output<S>;
}

/** What a handler returns: a JSON body with a status, no content, or a streamed body with its own headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown, status = 200): Reply => ({ status, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });
/** A download: the stream is sent as it is produced, after the checks (one request for the rate limit). */
export const streamed = (body: ReadableStream<Uint8Array>, headers: Record<string, string>): Reply => ({ status: 200, body, headers });

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;

export { newTraceId };

const joinPath = (path: PropertyKey[]) => path.map(String).join(".") || "(root)";

export function zodDetails(error: z.ZodError): ErrorDetail[] {
  // An unknown field is reported at its own path, so a client can tell which field to drop.
  return error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ path: joinPath([...issue.path, key]), message: "Unknown field" }))
      : [{ path: joinPath(issue.path), message: issue.message }],
  );
}

function parseWith<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ApiError("validation_failed", `Invalid ${what}`, zodDetails(result.error));
  return result.data;
}

function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  // First value wins for repeated parameters: a predictable rule rather than an array surprise.
  for (const [key, value] of url.searchParams) if (!(key in out)) out[key] = value;
  return out;
}

// In a u-flag regex a surrogate pair is one code point, so this matches only unpaired halves.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The path of the first string or key holding a lone surrogate (`"\ud800"` is valid JSON), or null.
 * Such a string is not Unicode text: postgres.js stores U+FFFD for it, PGlite drops what follows it.
 * Iterative, since a body may nest arrays thousands deep.
 */
function loneSurrogatePath(value: unknown): string | null {
  type Entry = { value: unknown; key?: PropertyKey; parent?: Entry };
  const pathOf = (entry: Entry, last?: PropertyKey) => {
    const keys: PropertyKey[] = last === undefined ? [] : [last];
    for (let e: Entry | undefined = entry; e?.parent; e = e.parent) keys.push(e.key!);
    return joinPath(keys.reverse());
  };
  const stack: Entry[] = [{ value }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const node = entry.value;
    if (typeof node === "string") {
      if (LONE_SURROGATE.test(node)) return pathOf(entry);
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => stack.push({ value: item, key: index, parent: entry }));
    } else if (node !== null && typeof node === "object") {
      for (const [key, item] of Object.entries(node)) {
        if (LONE_SURROGATE.test(key)) return pathOf(entry, key);
        stack.push({ value: item, key, parent: entry });
      }
    }
  }
  return null;
}

/** The request body: its text as sent and the JSON value parsed from it. */
interface Body {
  text: string;
  value: unknown;
}

async function readBody(request: Request): Promise<Body | undefined> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new ApiError("payload_too_large", "Request body exceeds 1 MiB");
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) throw new ApiError("payload_too_large", "Request body exceeds 1 MiB");
      chunks.push(chunk);
    }
  }
  if (size === 0) return undefined;
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json" && !type.endsWith("+json")) {
    throw new ApiError("unsupported_media_type", "Request body must be JSON (Content-Type: application/json)");
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError("invalid_json", "Request body is not valid UTF-8");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", "Request body is not valid JSON");
  }
  const illFormed = loneSurrogatePath(value);
  if (illFormed) {
    throw new ApiError("validation_failed", "Invalid request body", [
      { path: illFormed, message: "Text must be well-formed Unicode (no unpaired surrogate escapes such as \\ud800)" },
    ]);
  }
  return { text, value };
}

function bearer(request: Request): string | null {
  const header = request.headers.get("authorization")?.trim();
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return (match ? match[1]! : header).trim();
}

interface Authorized {
  principal: Principal;
  headers: Record<string, string>;
}

async function authorize(request: Request, access: Access): Promise<Authorized> {
  const token = bearer(request);
  if ("dashboard" in access) {
    const principal = await resolveDashboardPrincipal(token);
    if (!principal) {
      throw new ApiError(
        "unauthorized",
        "A dashboard user token is required (Authorization: Bearer <jwt>); API keys are not accepted here",
      );
    }
    return { principal, headers: {} };
  }
  const key = token ? await authenticateApiKey(token) : null;
  if (!key) throw new ApiError("unauthorized", "Invalid or missing API key");
  const limit = await checkRateLimit(key.id, key.rateLimitPerMinute);
  const headers = rateLimitHeaders(limit);
  if (!limit.allowed) {
    throw new ApiError("rate_limited", "Rate limit exceeded; retry after the time given in Retry-After", undefined, {
      ...headers,
      "Retry-After": String(limit.retryAfterSeconds),
    });
  }
  if (!hasScope(key.scopes, access.scope)) {
    throw new ApiError("forbidden", `Insufficient permissions. Required scope: ${access.scope}`, undefined, headers);
  }
  return { principal: { organizationId: key.organizationId, apiKeyId: key.id }, headers };
}

export function errorResponse(error: unknown, traceId: string, extraHeaders: Record<string, string> = {}): Response {
  const apiError =
    error instanceof ApiError ? error : (apiErrorFromDatabase(error) ?? new ApiError("internal", "Internal server error"));
  if (apiError.status >= 500) log.error("request failed", { trace_id: traceId, error: String(error), stack: (error as Error)?.stack });
  return apiErrorResponse(apiError, traceId, extraHeaders);
}

/** Wraps one handler with authentication, scope, rate limit, trace id, body parsing, idempotency and error mapping. */
export function endpoint<P = Record<string, string>>(
  access: Access,
  handler: (ctx: RequestContext<P>) => Promise<Reply>,
): RouteHandler {
  return async (request, context) => {
    const traceId = newTraceId();
    let headers: Record<string, string> = {};
    try {
      const authorized = await authorize(request, access);
      headers = authorized.headers;
      const params = (await context.params) as P;
      const url = new URL(request.url);
      const rawBody = request.method === "GET" || request.method === "DELETE" ? undefined : await readBody(request);
      const ctx: RequestContext<P> = {
        request,
        params,
        traceId,
        principal: authorized.principal,
        query: (schema) => parseWith(schema, queryObject(url), "query parameters"),
        // Only a missing body stands for {}: a JSON null is a body, and not an object.
        body: (schema) => parseWith(schema, rawBody ? rawBody.value : {}, "request body"),
      };
      const idempotencyKey = request.method === "POST" ? request.headers.get("idempotency-key") : null;
      const reply = idempotencyKey
        ? await withIdempotency(
            // The text as sent, not a re-serialization: JSON.stringify overflows the stack on deeply nested bodies.
            { organizationId: authorized.principal.organizationId, key: idempotencyKey, fingerprint: [request.method, url.pathname, rawBody?.text ?? ""] },
            () => handler(ctx),
          )
        : { ...(await handler(ctx)), replayed: false };
      const responseHeaders: Record<string, string> = { ...headers, "X-Trace-Id": traceId, "Cache-Control": "no-store" };
      if (reply.replayed) responseHeaders["Idempotent-Replayed"] = "true";
      if (reply.status === 204) return new Response(null, { status: 204, headers: responseHeaders });
      if (reply.body instanceof ReadableStream) return new Response(reply.body, { status: reply.status, headers: { ...responseHeaders, ...reply.headers } });
      return Response.json(reply.body, { status: reply.status, headers: responseHeaders });
    } catch (error) {
      return errorResponse(error, traceId, headers);
    }
  };
}

function methodNotAllowed(allowed: string[]): RouteHandler {
  return async () =>
    errorResponse(new ApiError("method_not_allowed", "Method not allowed"), newTraceId(), { Allow: allowed.join(", ") });
}

/**
 * The exports of a catch-all route under an API prefix: unknown paths answer with the API's error body rather
 * than Next's HTML 404 page. No key is checked: there is nothing here to protect, and a 404 reveals nothing
 * about any organization.
 */
export function unknownPaths(): Record<HttpMethod, RouteHandler> {
  const unknownPath: RouteHandler = async () => errorResponse(new ApiError("not_found", "No such endpoint"), newTraceId());
  return Object.fromEntries(HTTP_METHODS.map((m) => [m, unknownPath])) as Record<HttpMethod, RouteHandler>;
}

/** The exports of a route file: the given methods, and a 405 with the error body for the others. */
export function methods(table: Partial<Record<HttpMethod, RouteHandler>>): Record<HttpMethod, RouteHandler> {
  const allowed = HTTP_METHODS.filter((m) => table[m]);
  return Object.fromEntries(HTTP_METHODS.map((m) => [m, table[m] ?? methodNotAllowed(allowed)])) as Record<
    HttpMethod,
    RouteHandler
  >;
}
