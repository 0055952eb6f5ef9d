export type ErrorCode =
  | "validation_failed"
  | "invalid_json"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limited"
  | "internal"
  | "service_unavailable";

const STATUS: Record<ErrorCode, number> = {
  validation_failed: 400,
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  service_unavailable: 503,
};

/** Every error code, in status order (the OpenAPI error schema enumerates them). */
export const ERROR_CODES = Object.keys(STATUS) as [ErrorCode, ...ErrorCode[]];

export interface ErrorDetail {
  path: string;
  message: string;
}

/** Every failure a handler or domain function reports; the route wrapper turns it into the error body. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = STATUS[code];
  }
}

export const notFound = (what = "Resource") => new ApiError("not_found", `${what} not found`);
export const conflict = (message: string) => new ApiError("conflict", message);
export const validationFailed = (details: ErrorDetail[], message = "Validation failed") =>
  new ApiError("validation_failed", message, details);

const TRACE_ID_BYTES = 12;
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
// Trace ids are cut from a pool of random bytes refilled every 341 ids: each getRandomValues call is a crypto job that
// Node registers with async_hooks, and one per request was 4 % of a health check's CPU (randomFillSync, profiled).
const randomPool = new Uint8Array(TRACE_ID_BYTES * 341);
let poolOffset = randomPool.length;

/** A fresh request trace id (24 hex digits); Web Crypto, so code outside the route wrapper (the proxy) can use it. */
export function newTraceId(): string {
  if (poolOffset === randomPool.length) {
    crypto.getRandomValues(randomPool);
    poolOffset = 0;
  }
  let id = "";
  for (const end = poolOffset + TRACE_ID_BYTES; poolOffset < end; poolOffset++) id += HEX_BYTES[randomPool[poolOffset]!];
  return id;
}

/**
 * A response as the API sends it: its body already serialised (JSON) or streamed (a download). The Pages Router
 * API routes write it to Node's response (lib/http/pages-api.ts); toWebResponse makes it a web Response for the
 * proxy and the App Router routes.
 */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string | ReadableStream<Uint8Array> | null;
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string>): ApiResponse {
  return { status, headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

export function toWebResponse(response: ApiResponse): Response {
  return new Response(response.body, { status: response.status, headers: response.headers });
}

/** The error body `{ error, code, trace_id, details? }` with its status and the X-Trace-Id header. */
export function apiErrorResponse(apiError: ApiError, traceId: string, extraHeaders: Record<string, string> = {}): ApiResponse {
  const body = {
    error: apiError.message,
    code: apiError.code,
    trace_id: traceId,
    ...(apiError.details?.length ? { details: apiError.details } : {}),
  };
  return jsonResponse(apiError.status, body, { ...extraHeaders, ...apiError.headers, "X-Trace-Id": traceId, "Cache-Control": "no-store" });
}
