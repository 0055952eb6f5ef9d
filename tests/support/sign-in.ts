// Without vitest: the benchmarks sign in the same way (bench/support/dashboard-pages.ts).

/**
 * One dashboard sign-in as the login form posts it: through Auth.js's credentials callback with a CSRF
 * token. The answer is a redirect; it is returned unread, for the caller to read what it needs.
 */
export async function credentialsSignIn(baseUrl: string, email: string, password: string): Promise<Response> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams({ csrfToken, email, password }).toString(),
  });
}

/** The Cookie header of a signed-in dashboard session, obtained over HTTP as the login form does. */
export async function sessionCookie(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await credentialsSignIn(baseUrl, email, password);
  await response.text();
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="));
  if (!cookie) throw new Error(`sessionCookie: no session for ${email} (status ${response.status})`);
  return cookie.split(";")[0]!;
}
