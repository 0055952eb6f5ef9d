import { NextResponse, type NextRequest } from "next/server";
import { REQUESTED_PATH_HEADER } from "@/lib/dashboard/return-path";
import { ApiError, apiErrorResponse, newTraceId } from "@/lib/http/errors";

const API_PREFIXES = /^\/(?:v1|analytics_search|webhooks)(?:\/|$)/;

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
    if (API_PREFIXES.test(pathname)) {
      return apiErrorResponse(new ApiError("not_found", "No such resource: the path is not valid percent-encoded UTF-8"), newTraceId());
    }
    // No route has this name, so the root not-found page answers, with status 404.
    return NextResponse.rewrite(new URL("/_malformed-path", request.url));
  }
}

/** Dashboard pages learn the address asked for, so sign-in can return there. */
function withRequestedPath(request: NextRequest): NextResponse {
  const headers = new Headers(request.headers);
  headers.set(REQUESTED_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export function proxy(request: NextRequest) {
  return malformedPathAnswer(request) ?? withRequestedPath(request);
}

export const config = {
  // Matched against the raw path: API paths pay for the proxy only when they hold a percent sign.
  matcher: [
    "/((?:v1|analytics_search|webhooks)\\b.*%.*)",
    "/(api/auth/.*%.*)",
    "/((?:overview|api-keys|orders|events|venues|integrations|deliveries)(?:/.*)?)",
  ],
};
