import { ApiError, newTraceId } from "./errors";
import { errorResponse, type Endpoint, type RouteHandler } from "./route";

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];
type RouteExports = Record<HttpMethod | "OPTIONS", RouteHandler>;

/** OPTIONS: 204 with the methods the path serves, so `Allow` never names a method that answers 405. */
export function options(allowed: readonly string[]): RouteHandler {
  return async () => new Response(null, { status: 204, headers: { Allow: allowed.join(", "), "X-Trace-Id": newTraceId() } });
}

function methodNotAllowed(allowed: readonly string[]): RouteHandler {
  return async () =>
    errorResponse(new ApiError("method_not_allowed", "Method not allowed"), newTraceId(), { Allow: allowed.join(", ") });
}

/**
 * The exports of a route file: the endpoints of its one path by their operations' methods, a 405 with the
 * error body for the other methods, and OPTIONS.
 */
export function route(...endpoints: Endpoint[]): RouteExports {
  const path = endpoints[0]?.operation.path;
  const byMethod = new Map(endpoints.map((served) => [served.operation.method.toUpperCase(), served]));
  if (endpoints.some((served) => served.operation.path !== path) || byMethod.size !== endpoints.length) {
    throw new Error(`A route serves one path, each method once: ${endpoints.map((e) => e.operation.operationId).join(", ")}`);
  }
  const allowed = HTTP_METHODS.filter((method) => byMethod.has(method));
  const notAllowed = methodNotAllowed(allowed);
  return {
    ...(Object.fromEntries(HTTP_METHODS.map((method) => [method, byMethod.get(method) ?? notAllowed])) as Record<HttpMethod, RouteHandler>),
    OPTIONS: options(allowed),
  };
}

/**
 * The exports of a catch-all route under an API prefix: unknown paths answer with the API's error body rather
 * than Next's HTML 404 page. No key is checked: there is nothing here to protect, and a 404 reveals nothing
 * about any organization.
 */
export function unknownPaths(): RouteExports {
  const unknownPath: RouteHandler = async () => errorResponse(new ApiError("not_found", "No such endpoint"), newTraceId());
  return Object.fromEntries([...HTTP_METHODS, "OPTIONS"].map((m) => [m, unknownPath])) as RouteExports;
}

/** A handler whose responses (made elsewhere, e.g. by Inngest's serve) also carry X-Trace-Id. */
export function withTraceId<Args extends unknown[]>(
  handler: (...args: Args) => Promise<Response>,
): (...args: Args) => Promise<Response> {
  return async (...args) => {
    const response = await handler(...args);
    const headers = new Headers(response.headers);
    headers.set("X-Trace-Id", newTraceId());
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
