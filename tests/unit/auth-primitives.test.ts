import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { hasScope } from "@/lib/auth/scopes";
import { hashPassword, verifyPassword } from "@/lib/auth/secrets";
import { issueUserToken, verifyUserToken } from "@/lib/auth/user-token";

describe("scopes", () => {
  it("grants exactly what was given, * everything, customers:read also memberships:read", () => {
    expect(hasScope(["orders:read"], "orders:read")).toBe(true);
    expect(hasScope(["orders:read"], "orders:write")).toBe(false);
    expect(hasScope(["*"], "venues:write")).toBe(true);
    expect(hasScope(["customers:read"], "memberships:read")).toBe(true);
    expect(hasScope(["memberships:read"], "customers:read")).toBe(false);
    expect(hasScope([], "orders:read")).toBe(false);
  });
});

describe("passwords", () => {
  it("verifies the right password only and never stores it in the hash", async () => {
    const hash = await hashPassword("s3cret-Passw0rd");
    expect(hash).not.toContain("s3cret");
    expect(await verifyPassword("s3cret-Passw0rd", hash)).toBe(true);
    expect(await verifyPassword("s3cret-passw0rd", hash)).toBe(false);
    expect(await verifyPassword("x", "garbage")).toBe(false);
  });
});

describe("dashboard user tokens", () => {
  const subject = { userId: "user-1", organizationId: "org-1", sessionVersion: 3 };
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const secret = (text: string) => new TextEncoder().encode(text);

  it("accepts its own unexpired tokens", async () => {
    const token = await issueUserToken(subject, 60);
    expect(await verifyUserToken(token)).toMatchObject({ sub: "user-1", org: "org-1", sv: 3 });
  });

  it("refuses expired, tampered and alg=none tokens", async () => {
    const now = Date.now();
    expect(await verifyUserToken(await issueUserToken(subject, 60, now - 120_000), now)).toBeNull();
    const [header, payload, signature] = (await issueUserToken(subject, 60)).split(".");
    const forged = encode({ sub: "u", org: "other", sv: 3, iat: Math.floor(now / 1000), exp: 9_999_999_999 });
    expect(await verifyUserToken(`${header}.${forged}.${signature}`)).toBeNull();
    const none = encode({ alg: "none", typ: "JWT" });
    expect(await verifyUserToken(`${none}.${payload}.`)).toBeNull();
    expect(await verifyUserToken(`${none}.${forged}.`)).toBeNull();
  });

  it("refuses a signature spelled with the spare bits of its last character set (same bytes, altered text)", async () => {
    const token = await issueUserToken(subject, 60);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    // A 32-byte HMAC is 43 characters; the last one carries 4 bits and 2 spare zero bits.
    const last = alphabet.indexOf(token.at(-1)!);
    expect(last % 4).toBe(0);
    const altered = token.slice(0, -1) + alphabet[last + 1];
    expect(Buffer.from(altered.split(".")[2]!, "base64url")).toEqual(Buffer.from(token.split(".")[2]!, "base64url"));
    expect(await verifyUserToken(altered)).toBeNull();
  });

  it("refuses a token that expired a second ago and accepts it a second before", async () => {
    const now = Date.now();
    const token = await issueUserToken(subject, 60, now);
    expect(await verifyUserToken(token, now + 59_000)).not.toBeNull();
    expect(await verifyUserToken(token, now + 61_000)).toBeNull();
  });

  it("refuses tokens signed with another key or another algorithm, and tokens missing claims", async () => {
    const claims = { org: "org-1", sv: 3 };
    const sign = (alg: string, key: string) =>
      new SignJWT(claims).setProtectedHeader({ alg, typ: "JWT" }).setSubject("user-1").setIssuedAt().setExpirationTime("1h").sign(secret(key));
    expect(await verifyUserToken(await sign("HS256", "another-secret-another-secret-0123456789"))).toBeNull();
    // The right key, but not the pinned algorithm.
    expect(await verifyUserToken(await sign("HS512", process.env.AUTH_SECRET!))).toBeNull();
    expect(await verifyUserToken(await sign("HS256", process.env.AUTH_SECRET!))).not.toBeNull();
    const withoutVersion = await new SignJWT({ org: "org-1" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("user-1")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(secret(process.env.AUTH_SECRET!));
    expect(await verifyUserToken(withoutVersion)).toBeNull();
  });
});
