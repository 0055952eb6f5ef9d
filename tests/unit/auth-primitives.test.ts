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
  it("accepts its own unexpired tokens", () => {
    const token = issueUserToken("user-1", "org-1", 60);
    expect(verifyUserToken(token)).toMatchObject({ sub: "user-1", org: "org-1" });
  });

  it("refuses expired, tampered and alg=none tokens", () => {
    const now = Date.now();
    expect(verifyUserToken(issueUserToken("u", "o", 60, now - 120_000), now)).toBeNull();
    const [header, payload, signature] = issueUserToken("u", "o", 60).split(".");
    const forged = Buffer.from(JSON.stringify({ sub: "u", org: "other", exp: 9_999_999_999 })).toString("base64url");
    expect(verifyUserToken(`${header}.${forged}.${signature}`)).toBeNull();
    const none = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    expect(verifyUserToken(`${none}.${payload}.`)).toBeNull();
  });
});
