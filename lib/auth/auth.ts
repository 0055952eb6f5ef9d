import "server-only";
import type { NextApiRequest, NextApiResponse } from "next";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { db } from "@/db/client";
import type { Role } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import { originOf, type RequestOrigin } from "@/lib/audit/context";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { throttledCheck } from "./login-throttle";
import { checkCredentials, currentSessionRole, endUserSessions, findUserByEmail, type SessionSubject } from "./users";

declare module "next-auth" {
  interface User {
    organizationId?: string;
    sessionVersion?: number;
  }
  interface Session {
    organizationId: string;
    userId: string;
    sessionVersion: number;
  }
}

/** Too many recent failures for the e-mail address: refused without checking the password. */
export class SignInThrottled extends CredentialsSignin {
  code = "throttled";
}

/**
 * A refused sign-in goes into the audit log with the e-mail tried; it belongs to an organization only when a
 * user has that e-mail (the user id is then the actor's), else to none, so no organization learns of it.
 */
async function recordFailedSignIn(email: string, origin: RequestOrigin, reason: "invalid_credentials" | "throttled") {
  const user = await findUserByEmail(email);
  await recordAudit(db, {
    organizationId: user?.organizationId ?? null,
    action: "user.sign_in_failed",
    actor: { type: "user", id: user?.id ?? null, label: email.trim().toLowerCase() },
    origin,
    target: { type: "user", id: user?.id ?? null, label: email.trim().toLowerCase() },
    details: { reason },
  });
}

const credentialsSchema = z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1000) });

/**
 * Dashboard sign-in: e-mail and password from the users table, JWT sessions (no session table). Each
 * session carries its user's session version, compared with the database on every request (see
 * signedInUser), so signing out ends the session server-side and not only in this browser.
 */
export const { handlers, auth, signIn, signOut } = NextAuth({
  secret: env.AUTH_SECRET,
  trustHost: true,
  session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
  pages: { signIn: "/login" },
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: async (raw, request) => {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) return null;
        const { email, password } = parsed.data;
        const origin = originOf(request.headers);
        // Throttled here rather than in the sign-in page so the Auth.js callback endpoint is throttled too.
        const result = await throttledCheck(email, () => checkCredentials(email, password));
        if (result.throttled) {
          await recordFailedSignIn(email, origin, "throttled");
          throw new SignInThrottled();
        }
        const { user } = result;
        if (!user) {
          await recordFailedSignIn(email, origin, "invalid_credentials");
          return null;
        }
        const self = { type: "user", id: user.id, label: user.email } as const;
        await recordAudit(db, { organizationId: user.organizationId, action: "user.signed_in", actor: self, origin, target: self });
        return {
          id: user.id,
          email: user.email,
          name: user.name ?? user.email,
          organizationId: user.organizationId,
          sessionVersion: user.sessionVersion,
        };
      },
    }),
  ],
  logger: {
    // A wrong password is an expected outcome, not a server error worth a stack trace.
    error: (error) => {
      if (!(error instanceof CredentialsSignin)) log.error("auth error", { error: String(error), stack: error.stack });
    },
    warn: (code) => log.warn("auth warning", { code }),
  },
  callbacks: {
    jwt({ token, user }) {
      if (user?.organizationId) token.org = user.organizationId;
      if (user?.sessionVersion !== undefined) token.sv = user.sessionVersion;
      return token;
    },
    session({ session, token }) {
      session.organizationId = String(token.org ?? "");
      session.userId = String(token.sub ?? "");
      // A session from before session versions matches no user's: it has to sign in again.
      session.sessionVersion = typeof token.sv === "number" ? token.sv : -1;
      return session;
    },
  },
  events: {
    // Signing out ends every session of the user, the copied or stolen cookie of this one included.
    async signOut(message) {
      const userId = "token" in message ? message.token?.sub : undefined;
      if (userId) await endUserSessions(userId);
    },
  },
});

export interface SignedInUser extends SessionSubject {
  email: string | null;
  /** Read from the database on every request, so a new role applies at once. */
  role: Role;
}

// The request headers Auth.js reads a session from: its cookie, and the host its URLs are made for.
const SESSION_HEADERS = ["cookie", "host", "x-forwarded-host", "x-forwarded-proto"];

/**
 * An API route's session, read by Auth.js's API-route form from the request's headers. The refreshed session
 * cookie it would set is not sent, as auth() in an App Router route handler sends none either.
 */
function apiRouteSession(headers: Pick<Headers, "get">) {
  const request = new Headers();
  for (const name of SESSION_HEADERS) {
    const value = headers.get(name);
    if (value !== null) request.set(name, value);
  }
  return auth({ headers: request } as unknown as NextApiRequest, { headers: new Headers() } as unknown as NextApiResponse);
}

/**
 * The user of the request's session cookie, or null when there is none or it has ended (see currentSessionRole).
 * Pages and server actions call it without arguments (Auth.js finds their request's headers itself); an API
 * route passes its request's headers.
 */
export async function signedInUser(headers?: Pick<Headers, "get">): Promise<SignedInUser | null> {
  const session = await (headers ? apiRouteSession(headers) : auth());
  if (!session?.organizationId || !session.userId) return null;
  const subject = { userId: session.userId, organizationId: session.organizationId, sessionVersion: session.sessionVersion };
  const role = await currentSessionRole(subject);
  return role ? { ...subject, email: session.user?.email ?? null, role } : null;
}
