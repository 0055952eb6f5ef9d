import { env } from "@/lib/env";
import { constantTimeEqual, hmacSha256 } from "./secrets";

/** Claims of the dashboard user token accepted by the webhook inspection endpoints. */
export interface UserTokenClaims {
  sub: string;
  org: string;
  iat: number;
  exp: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");

function sign(payload: string): string {
  return hmacSha256(env.AUTH_SECRET, `${HEADER}.${payload}`).toString("base64url");
}

export function issueUserToken(userId: string, organizationId: string, ttlSeconds = 3600, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const claims: UserTokenClaims = { sub: userId, org: organizationId, iat, exp: iat + ttlSeconds };
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${HEADER}.${payload}.${sign(payload)}`;
}

export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}

/** The claims of a valid, unexpired HS256 token signed with AUTH_SECRET; null for anything else. */
export function verifyUserToken(token: string, now = Date.now()): UserTokenClaims | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  // Only our own header is accepted, which rules out alg=none and algorithm confusion.
  if (header !== HEADER || !constantTimeEqual(signature, sign(payload))) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const c = claims as Partial<UserTokenClaims>;
  if (typeof c.sub !== "string" || typeof c.org !== "string" || typeof c.exp !== "number") return null;
  if (c.exp * 1000 <= now) return null;
  return c as UserTokenClaims;
}
