/** Request header the proxy sets on dashboard requests: the path and query the browser asked for. */
export const REQUESTED_PATH_HEADER = "x-dashboard-requested-path";

const ORIGIN = "http://dashboard.invalid";

/**
 * The same-origin path (with query) to return to after sign-in, or null. Protocol-relative (`//evil`,
 * `/\evil`), absolute and scheme URLs are refused: each would send the user to another site.
 */
export function safeReturnPath(candidate: unknown): string | null {
  if (typeof candidate !== "string" || !candidate.startsWith("/") || candidate.length > 2000) return null;
  if (/^\/[\\/]/.test(candidate) || /[\u0000-\u001f\\]/.test(candidate)) return null;
  let url: URL;
  try {
    url = new URL(candidate, ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== ORIGIN || url.pathname === "/login") return null;
  return `${url.pathname}${url.search}`;
}

/** The sign-in page's address for someone who asked for `path`. */
export function signInHref(path: string | null): string {
  const target = safeReturnPath(path);
  return target && target !== "/overview" ? `/login?next=${encodeURIComponent(target)}` : "/login";
}
