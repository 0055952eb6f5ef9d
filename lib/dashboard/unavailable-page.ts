/** Seconds a client is asked to wait (Retry-After) while the database is unreachable; the API's 503 says the same. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The page a dashboard request gets while the database is unreachable: status 503 with Retry-After, and
 * a page that says so and reloads itself. Plain HTML: rendering the app's pages needs the database.
 */
export function serviceUnavailablePage(): Response {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">
<title>Service temporarily unavailable · Ticketing analytics</title>
<style>
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f8fafc;color:#0f172a;font:16px/1.5 system-ui,sans-serif}
main{max-width:28rem;margin:1rem;padding:1.5rem;border:1px solid #e2e8f0;border-radius:.75rem;background:#fff;box-shadow:0 1px 2px #0000000d}
h1{margin:0 0 .5rem;font-size:1.25rem}p{margin:0;color:#334155;font-size:.875rem}
</style>
</head>
<body>
<main role="alert">
<h1>Service temporarily unavailable</h1>
<p>The dashboard cannot reach its database right now. Retrying every ${RETRY_AFTER_SECONDS} seconds; this page reloads by itself.</p>
</main>
</body>
</html>
`;
  return new Response(html, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Retry-After": String(RETRY_AFTER_SECONDS),
      "Cache-Control": "no-store",
    },
  });
}
