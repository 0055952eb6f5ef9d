import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { NextApiRequest, NextApiResponse } from "next";
import { getRequestMeta } from "next/dist/server/request-meta";
import { API_PREFIXES } from "./api-prefixes";
import { ApiError, newTraceId, type ApiResponse } from "./errors";
import { errorResponse, type ApiRequest, type RouteHandler } from "./route";

/**
 * The API is served by Pages Router API routes (pages/api/…, rewritten from /v1, /webhooks and /analytics_search
 * in next.config.ts): they hand the handler Node's request and response, where an App Router route handler
 * goes through Next's web Request/Response adapters, request-scoped stores and web streams, which cost as much
 * CPU per request as the API's own work (bench/history.md, "The API on the Pages Router"). The route wrapper
 * (lib/http/route.ts) reads a request through ApiRequest and answers with an ApiResponse (a serialised body or a
 * stream), so the pieces below only translate at the edges.
 */

/** Node's parsed headers read through the one method of Headers the API uses. */
class NodeHeaders implements Pick<Headers, "get"> {
  constructor(private readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }
}

/**
 * The address the client asked for. A rewrite hands the API route its destination (/api/v1/…) as `req.url`;
 * the path the API answers for, logs and fingerprints is the client's (/v1/…), which Next keeps as the
 * request's `initURL`.
 */
function requestedUrl(req: NextApiRequest): string {
  const initUrl = getRequestMeta(req, "initURL");
  if (!initUrl) throw new Error("Next.js gave the API route no initURL");
  return initUrl;
}

function apiRequest(req: NextApiRequest): ApiRequest {
  return { method: req.method ?? "GET", url: requestedUrl(req), headers: new NodeHeaders(req.headers), body: req };
}

/** A dynamic segment's value: Next puts path parameters into req.query, ahead of query parameters of the same name. */
function pathParams(req: NextApiRequest, names: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of names) {
    const value = req.query[name];
    if (typeof value === "string") params[name] = value;
  }
  return params;
}

async function send(res: NextApiResponse, response: ApiResponse): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (!(response.body instanceof ReadableStream)) {
    res.end(response.body ?? undefined);
    return;
  }
  // A download streams with backpressure; a client that goes away ends the stream (and cancels what feeds it).
  await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), res).catch(() => {});
}

/** The API's 404 for a path it does not serve. */
export const unknownPath: RouteHandler = async () => errorResponse(new ApiError("not_found", "No such endpoint"), newTraceId());

// The rewrites' destinations are no public address: /api/v1/venues is not /v1/venues.
const REWRITE_DESTINATION = new RegExp(`^[a-z]+://[^/]+/api/(?:${API_PREFIXES.join("|")})(?:[/?]|$)`);

/** A Pages Router API route serving `handlers` by method; `paramNames` are its path's dynamic segments. */
export function pagesHandler(handlers: (method: string) => RouteHandler, paramNames: readonly string[] = []) {
  return async (req: NextApiRequest, res: NextApiResponse): Promise<void> => {
    const request = apiRequest(req);
    const handler = REWRITE_DESTINATION.test(request.url) ? unknownPath : handlers(request.method === "HEAD" ? "GET" : request.method);
    await send(res, await handler(request, { params: pathParams(req, paramNames) }));
  };
}
