import { NextResponse, type NextRequest } from "next/server";
import { isCrossOriginRequest } from "@/lib/auth/same-origin";
import { REQUESTED_PATH_HEADER } from "@/lib/dashboard/return-path";
import { serviceUnavailablePage } from "@/lib/dashboard/unavailable-page";
import { databaseHealth } from "@/lib/health";
import { API_PREFIXES } from "@/lib/http/api-prefixes";
import { ApiError, apiErrorResponse, newTraceId, toWebResponse } from "@/lib/http/errors";

const underPrefix = (prefixes: readonly string[]) => new RegExp(`^/(?:${prefixes.join("|")})(?:/|$)`);
const API_PREFIX_PATH = underPrefix(API_PREFIXES);
const API_PATH = underPrefix([...API_PREFIXES, "api"]);

/** A server action call: the page's fetch (Next-Action header), or a form posted without JavaScript (multipart, to a page). */
function isServerActionCall(request: NextRequest): boolean {
  if (request.method !== "POST") return false;
  if (request.headers.has("next-action")) return true;
  return /^multipart\/form-data/i.test(request.headers.get("content-type") ?? "") && !API_PATH.test(request.nextUrl.pathname);
}

/** Next.js refuses a server action posted from another origin too, but as a 500; it is the caller's fault. */
function crossOriginActionAnswer(request: NextRequest): Response | null {
  if (!isServerActionCall(request) || !isCrossOriginRequest(request.headers)) return null;
  return toWebResponse(apiErrorResponse(new ApiError("forbidden", "Cross-origin server action requests are refused"), newTraceId()));
}

/**
 * Next.js decodes dynamic path segments before any route handler or page runs. A path that is not valid
 * percent-encoded UTF-8 (`/v1/venues/%FF`, a lone `%`) fails that decoding, and Next's 400 for it then
 * needs a Pages Router error page this app does not have: the caller got a bare-text 500. Such a path
 * names nothing, so it is answered here, before routing: the API's 404 body on API paths, the
 * dashboard's 404 page (status 404) everywhere else.
 */
function malformedPathAnswer(request: NextRequest): Response | null {
  const { pathname } = new URL(request.url);
  try {
    decodeURIComponent(pathname);
    return null;
  } catch {
    if (API_PREFIX_PATH.test(pathname)) {
      return toWebResponse(apiErrorResponse(new ApiError("not_found", "No such resource: the path is not valid percent-encoded UTF-8"), newTraceId()));
    }
    // No route has this name, so the root not-found page answers, with status 404.
    return NextResponse.rewrite(new URL("/_malformed-path", request.url));
  }
}

const API_AUTH = /^\/api\/auth(?:\/|$)/;

/**
 * Every dashboard page reads the database, and Next cannot give a rendered page any status but 200, 404
 * or 500: so a page view (GET) is answered 503 here, with Retry-After, while the database is unreachable.
 * Form posts (server actions) go on, and say at the form that the service is unavailable.
 */
async function unavailableAnswer(request: NextRequest): Promise<Response | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  if (API_AUTH.test(request.nextUrl.pathname)) return null;
  return (await databaseHealth()).status === "ok" ? null : serviceUnavailablePage();
}

/** Dashboard pages learn the address asked for, so sign-in can return there. */
function withRequestedPath(request: NextRequest): NextResponse {
  const headers = new Headers(request.headers);
  headers.set(REQUESTED_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export async function proxy(request: NextRequest) {
  return (
    crossOriginActionAnswer(request) ??
    malformedPathAnswer(request) ??
    (await unavailableAnswer(request)) ??
    withRequestedPath(request)
  );
}

export const config = {
  // Matched against the raw path: API paths pay for the proxy only when they hold a percent sign; dashboard
  // pages always (database check, return path); server action calls anywhere (Origin check). Next reads the matcher
  // as written, so the API's prefixes are spelled out here rather than taken from API_PREFIXES.
  matcher: [
    "/((?:v1|analytics_search|webhooks)\\b.*%.*)",
    "/(api/auth/.*%.*)",
    "/((?:overview|api-keys|orders|events|venues|integrations|deliveries|logs|security|members|account|login)(?:/.*)?)",
    { source: "/:path*", has: [{ type: "header", key: "next-action" }] },
    { source: "/:path*", has: [{ type: "header", key: "content-type", value: "multipart/form-data.*" }] },
  ],
};
