import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { loginAttempts } from "@/db/schema";
import { MAX_LOGIN_FAILURES } from "@/lib/auth/login-throttle";
import { useTestDatabase } from "../support/database";
import { createTenant, TENANT_PASSWORD } from "../support/fixtures";
import { credentialsSignIn } from "../support/http";
import { useTestServer } from "../support/server";

/**
 * Sign-in through the Auth.js credentials endpoint the login form posts to, in parallel as a guesser
 * would: the throttle must hold per address however many requests arrive at once.
 */
describe("dashboard sign-in throttling over HTTP", () => {
  useTestDatabase();
  const server = useTestServer();

  /** One sign-in: what Auth.js answered (its redirect says why a sign-in failed) and whether a session came back. */
  async function signIn(email: string, password: string) {
    const response = await credentialsSignIn(server.url(), email, password);
    await response.text();
    const location = new URL(response.headers.get("location") ?? "/", server.url());
    return {
      status: response.status,
      code: location.searchParams.get("code"),
      session: response.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token=")),
    };
  }

  it("checks at most five passwords for 20 parallel wrong guesses, then refuses the right password too", async () => {
    const { user } = await createTenant();
    const guesses = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(user.email, `wrong-${i}`)));
    expect(guesses.every((g) => g.status === 302 && !g.session)).toBe(true);
    const checked = guesses.filter((g) => g.code === "credentials");
    const refused = guesses.filter((g) => g.code === "throttled");
    expect(checked).toHaveLength(MAX_LOGIN_FAILURES);
    expect(refused).toHaveLength(20 - MAX_LOGIN_FAILURES);
    // Each checked guess left its row behind; the refused ones never got that far.
    const rows = await db.select().from(loginAttempts).where(eq(loginAttempts.email, user.email));
    expect(rows).toHaveLength(MAX_LOGIN_FAILURES);

    const right = await signIn(user.email, TENANT_PASSWORD);
    expect(right).toMatchObject({ code: "throttled", session: false });

    // Other addresses are not held up by this one.
    const other = await createTenant();
    expect(await signIn(other.user.email, TENANT_PASSWORD)).toMatchObject({ status: 302, code: null, session: true });
  });
});
