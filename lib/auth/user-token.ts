import "server-only";
import { jwtVerify, SignJWT } from "jose";
import { env } from "@/lib/env";
import type { SessionSubject } from "./users";

/** Claims of the dashboard user token accepted by the webhook inspection endpoints. */
export interface UserTokenClaims {
  sub: string;
  org: string;
  /** The user's session version when the token was issued: a sign-out or password change ends the token. */
  sv: number;
  iat: number;
  exp: number;
}

const ALGORITHM = "HS256";
const signingKey = () => new TextEncoder().encode(env.AUTH_SECRET);

export async function issueUserToken(subject: SessionSubject, ttlSeconds = 3600, now = Date.now()): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ org: subject.organizationId, sv: subject.sessionVersion })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(subject.userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(signingKey());
}

export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}

/**
 * The claims of a valid, unexpired token signed with AUTH_SECRET; null for anything else. The algorithm
 * is pinned, which rules out alg=none and algorithm confusion.
 */
export async function verifyUserToken(token: string, now = Date.now()): Promise<UserTokenClaims | null> {
  // A part's last character may have spare bits that base64url decoding ignores: only the canonical
  // spelling is accepted, so a token has exactly one text and an altered one never passes.
  if (!token.split(".").every((part) => Buffer.from(part, "base64url").toString("base64url") === part)) return null;
  let claims: Partial<UserTokenClaims>;
  try {
    ({ payload: claims } = await jwtVerify<Partial<UserTokenClaims>>(token, signingKey(), {
      algorithms: [ALGORITHM],
      requiredClaims: ["sub", "iat", "exp"],
      currentDate: new Date(now),
    }));
  } catch {
    return null;
  }
  if (typeof claims.org !== "string" || !Number.isInteger(claims.sv)) return null;
  return claims as UserTokenClaims;
}
