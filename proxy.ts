import { NextResponse, type NextRequest } from "next/server";
import { isCrossOriginRequest } from "@/lib/auth/same-origin";
import { ApiError, apiErrorResponse, newTraceId } from "@/lib/http/errors";

/**
 * Next.js decodes dynamic path segments before any route handler runs. A path that is not valid
 * percent-encoded UTF-8 (`/v1/venues/%FF`, a lone `%`) fails that decoding, and Next's 400 for it then
 * needs a Pages Router error page this app does not have: the caller got a bare-text 500. Such a path
 * names nothing, so it is answered here, before routing, with the API's 404 (as unknown /v1 paths are).
 */
const API_PATH = /^\/(?:v1|analytics_search|webhooks|api)(?:\/|$)/;

/** A server action call: the page's fetch (Next-Action header), or a form posted without JavaScript (multipart, to a page). */
function isServerActionCall(request: NextRequest): boolean {
  if (request.method !== "POST") return false;
  if (request.headers.has("next-action")) return true;
  return /^multipart\/form-data/i.test(request.headers.get("content-type") ?? "") && !API_PATH.test(request.nextUrl.pathname);
}

export function proxy(request: NextRequest) {
  // Next.js refuses a server action posted from another origin too, but as a 500; it is the caller's fault.
  if (isServerActionCall(request) && isCrossOriginRequest(request.headers)) {
    return apiErrorResponse(new ApiError("forbidden", "Cross-origin server action requests are refused"), newTraceId());
  }
  try {
    decodeURIComponent(new URL(request.url).pathname);
  } catch {
    return apiErrorResponse(new ApiError("not_found", "No such resource: the path is not valid percent-encoded UTF-8"), newTraceId());
  }
  return NextResponse.next();
}

export const config = {
  // Matched against the raw path: only API paths holding a percent sign, and server action calls, pay for the proxy.
  matcher: [
    "/((?:v1|analytics_search|webhooks)\\b.*%.*)",
    // Server action calls, for the Origin check.
    { source: "/:path*", has: [{ type: "header", key: "next-action" }] },
    { source: "/:path*", has: [{ type: "header", key: "content-type", value: "multipart/form-data.*" }] },
  ],
};
