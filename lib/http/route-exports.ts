import type { NextApiRequest, NextApiResponse } from "next";
import { ApiError, newTraceId, toWebResponse } from "./errors";
import { pagesHandler, unknownPath } from "./pages-api";
import { errorResponse, type ApiRequest, type Endpoint, type RouteHandler } from "./route";

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The default export of a Pages Router API route file (pages/api/…). */
export type ApiRoute = (req: NextApiRequest, res: NextApiResponse) => Promise<void>;

/** OPTIONS: 204 with the methods the path serves, so `Allow` never names a method that answers 405. */
export function options(allowed: readonly string[]): RouteHandler {
  return async () => ({ status: 204, headers: { Allow: allowed.join(", "), "X-Trace-Id": newTraceId() }, body: null });
}

function methodNotAllowed(allowed: readonly string[]): RouteHandler {
  return async () =>
    errorResponse(new ApiError("method_not_allowed", "Method not allowed"), newTraceId(), { Allow: allowed.join(", ") });
}

type MethodHandlers = Partial<Record<(typeof HTTP_METHODS)[number], RouteHandler>>;

/**
 * A Pages Router API route serving `handlers` by method (HEAD as GET), a 405 with the error body for the other
 * methods, and OPTIONS; `paramNames` are its path's dynamic segments.
 */
export function byMethod(handlers: MethodHandlers, paramNames: readonly string[] = []): ApiRoute {
  const allowed = HTTP_METHODS.filter((method) => handlers[method]);
  const notAllowed = methodNotAllowed(allowed);
  const answerOptions = options(allowed);
  return pagesHandler((method) => (method === "OPTIONS" ? answerOptions : (handlers[method as keyof MethodHandlers] ?? notAllowed)), paramNames);
}

/**
 * The API route of one operation path: its endpoints by their operations' methods (see byMethod). It carries
 * its endpoints (the route table test reads them).
 */
export function route(...endpoints: Endpoint[]): ApiRoute & { endpoints: readonly Endpoint[] } {
  const path = endpoints[0]?.operation.path ?? "";
  const handlers: MethodHandlers = Object.fromEntries(endpoints.map((served) => [served.operation.method.toUpperCase(), served]));
  if (endpoints.some((served) => served.operation.path !== path) || Object.keys(handlers).length !== endpoints.length) {
    throw new Error(`A route serves one path, each method once: ${endpoints.map((e) => e.operation.operationId).join(", ")}`);
  }
  const paramNames = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  return Object.assign(byMethod(handlers, paramNames), { endpoints });
}

/**
 * The API route of a catch-all under an API prefix: unknown paths answer with the API's error body rather
 * than Next's HTML 404 page. No key is checked: there is nothing here to protect, and a 404 reveals nothing
 * about any organization.
 */
export function unknownPaths(): ApiRoute {
  return pagesHandler(() => unknownPath);
}

/** An App Router route handler answering as `handler` does. */
export function webHandler(handler: RouteHandler): (request: Request) => Promise<Response> {
  return async (request) => toWebResponse(await handler(request as unknown as ApiRequest, { params: {} }));
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
