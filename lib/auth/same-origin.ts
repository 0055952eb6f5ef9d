/**
 * True when the request states an Origin that is not this site. The site is the host the request was
 * sent to (X-Forwarded-Host's first value behind a proxy, else Host), compared as Next.js compares it
 * for server actions. A request without Origin is not judged: browsers send Origin with every POST, so
 * only hand-made requests lack it, and those carry no cookie the sender does not already hold. Origin
 * "null" (sandboxed frames, data: URLs) and an unparsable Origin count as foreign.
 */
export function isCrossOriginRequest(headers: Pick<Headers, "get">): boolean {
  const origin = headers.get("origin");
  if (origin === null) return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  return !originHost || originHost !== host;
}
