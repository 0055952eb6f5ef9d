import "server-only";
import { log } from "@/lib/log";
import type { ApiRequest, RouteHandler } from "@/lib/http/route";
import { recordRequest } from "./buffer";

interface Seen {
  organizationId?: string;
  apiKeyId?: string;
  body?: unknown;
}

// What the route wrapper learns while serving a request, for the record made once its response exists.
const seenBy = new WeakMap<ApiRequest, Seen>();

function seen(request: ApiRequest): Seen {
  let entry = seenBy.get(request);
  if (!entry) seenBy.set(request, (entry = {}));
  return entry;
}

/** The request was authenticated with this sk_ key: it is logged, whatever its response (a 429 or 403 too). */
export function noteApiKey(request: ApiRequest, key: { id: string; organizationId: string }): void {
  Object.assign(seen(request), { organizationId: key.organizationId, apiKeyId: key.id });
}

/** The parsed JSON body of a write, logged redacted. */
export function noteRequestBody(request: ApiRequest, body: unknown): void {
  seen(request).body = body;
}

const ORDER_PATH = /^\/v1\/orders\/(ord_[0-9a-f]{32})(?:\/|$)/;

function clientIp(headers: ApiRequest["headers"]): string | null {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || headers.get("x-real-ip") || null;
}

/** Serves the request, then queues its record when an sk_ key authenticated it (lib/request-log/buffer writes it later). */
export function withRequestLog(serve: RouteHandler): RouteHandler {
  return async (request, context) => {
    const at = new Date();
    const started = performance.now();
    const response = await serve(request, context);
    const entry = seenBy.get(request);
    if (entry?.apiKeyId) {
      try {
        const url = new URL(request.url);
        const location = response.status === 201 ? (response.headers.Location ?? null) : null;
        const write = request.method !== "GET";
        recordRequest({
          organizationId: entry.organizationId!,
          apiKeyId: entry.apiKeyId,
          traceId: response.headers["X-Trace-Id"] ?? "",
          method: request.method,
          path: url.pathname,
          query: url.search.slice(1),
          status: response.status,
          durationMs: performance.now() - started,
          clientIp: clientIp(request.headers),
          userAgent: request.headers.get("user-agent"),
          body: write ? entry.body : undefined,
          createdResource: location,
          orderId: write && response.status < 400 ? (ORDER_PATH.exec(location ?? url.pathname)?.[1] ?? null) : null,
          at,
        });
      } catch (error) {
        log.error("request log record failed", { error: String(error) });
      }
    }
    return response;
  };
}
