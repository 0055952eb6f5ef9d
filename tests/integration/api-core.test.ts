import { describe, expect, it } from "vitest";
import { authenticateApiKeyAndHit, createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { checkRateLimit } from "@/lib/http/rate-limit";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { admittedHits, hitSequenceExists, plantHits } from "../support/rate-limit";
import { useTestServer } from "../support/server";

const venue = {
  name: "Cirkus",
  address: { street: "Djurgårdsslätten 43", city: "Stockholm", postal_code: "115 21", country: "SE" },
  capacity: 1650,
};

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = await response.json();
  expect(body).toMatchObject({ code, error: expect.any(String), trace_id: expect.any(String) });
  expect(response.headers.get("x-trace-id")).toBe(body.trace_id);
  return body as { error: string; code: string; trace_id: string; details?: { path: string; message: string }[] };
}

describe("the route wrapper: authentication, scopes, errors, rate limits, idempotency", () => {
  useTestDatabase();
  const server = useTestServer();

  it("refuses a missing, malformed, unknown or revoked key with 401 and the error body", async () => {
    const tenant = await createTenant();
    const url = `${server.url()}/v1/venues`;
    for (const authorization of [undefined, "Bearer", "Bearer sk_short", `Bearer sk_${"x".repeat(32)}`, "Basic abc"]) {
      const response = await fetch(url, { headers: authorization ? { Authorization: authorization } : {} });
      const body = await expectError(response, 401, "unauthorized");
      expect(body.error).toBe("Invalid or missing API key");
    }
    expect((await fetch(url, { headers: { Authorization: tenant.apiKey } })).status).toBe(200);
    await revokeApiKey(tenant.organization.id, tenant.apiKeyId);
    await expectError(await apiClient(server.url(), tenant.apiKey)("/v1/venues"), 401, "unauthorized");
  });

  it("names the missing scope in a 403", async () => {
    const tenant = await createTenant({ scopes: ["orders:read"] });
    const body = await expectError(await apiClient(server.url(), tenant.apiKey)("/v1/venues"), 403, "forbidden");
    expect(body.error).toBe("Insufficient permissions. Required scope: venues:read");
  });

  it("answers unsupported methods, media types, bad JSON and huge bodies with the error body", async () => {
    const tenant = await createTenant();
    const call = apiClient(server.url(), tenant.apiKey);
    const put = await call("/v1/venues", { method: "PUT", body: venue });
    await expectError(put, 405, "method_not_allowed");
    expect(put.headers.get("allow")).toContain("GET");

    const headers = { Authorization: `Bearer ${tenant.apiKey}` };
    const url = `${server.url()}/v1/venues`;
    await expectError(
      await fetch(url, { method: "POST", headers: { ...headers, "Content-Type": "text/plain" }, body: "name=x" }),
      415,
      "unsupported_media_type",
    );
    await expectError(
      await fetch(url, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: "{nope" }),
      400,
      "invalid_json",
    );
    await expectError(
      await fetch(url, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ ...venue, name: "x".repeat(1024 * 1024 + 10) }),
      }),
      413,
      "payload_too_large",
    );
    const invalid = await expectError(await call("/v1/venues", { method: "POST", body: { ...venue, capacity: 0, extra: 1 } }), 400, "validation_failed");
    expect(invalid.details?.map((d) => d.path)).toEqual(expect.arrayContaining(["capacity"]));
    expect((await call("/v1/venues")).status).toBe(200);
    expect((await (await call("/v1/venues")).json()).data).toEqual([]);
  });

  it("lets the limit through in a rolling minute and answers the next request 429 with Retry-After", async () => {
    const tenant = await createTenant({ rateLimitPerMinute: 5 });
    const call = apiClient(server.url(), tenant.apiKey);
    for (let i = 0; i < 5; i++) {
      const response = await call("/v1/venues");
      expect(response.status).toBe(200);
      expect(response.headers.get("x-ratelimit-limit")).toBe("5");
      expect(response.headers.get("x-ratelimit-remaining")).toBe(String(4 - i));
      expect(Number(response.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    }
    const limited = await call("/v1/venues");
    await expectError(limited, 429, "rate_limited");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(61);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("gives a key created without a limit 60 requests a minute: the 61st is a 429", async () => {
    const tenant = await createTenant();
    const { key } = await createApiKey({ organizationId: tenant.organization.id, name: "default limit", scopes: ["venues:read"] });
    const call = apiClient(server.url(), key);
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await call("/v1/venues")).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    const limited = await call("/v1/venues");
    await expectError(limited, 429, "rate_limited");
    expect(limited.headers.get("x-ratelimit-limit")).toBe("60");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("counts a rolling minute: hits 59 s old still count, hits 62 s old no longer do", async () => {
    const tenant = await createTenant();
    const plant = (secondsAgo: number) => plantHits(tenant.apiKeyId, [{ secondsAgo, hits: 5 }]);
    await plant(59);
    expect((await checkRateLimit(tenant.apiKeyId, 5)).allowed).toBe(false);
    await plant(62);
    expect((await checkRateLimit(tenant.apiKeyId, 5)).allowed).toBe(true);
  });

  it("looks a key up and counts its hit in one statement, only for a live key", async () => {
    const tenant = await createTenant();
    const first = await authenticateApiKeyAndHit(tenant.apiKey);
    expect(first?.key).toMatchObject({ id: tenant.apiKeyId, organizationId: tenant.organization.id });
    expect(first?.rateLimit).toMatchObject({ allowed: true, limit: first!.key.rateLimitPerMinute, remaining: first!.key.rateLimitPerMinute - 1 });
    expect(await admittedHits(tenant.apiKeyId)).toBe(1);
    expect(await authenticateApiKeyAndHit(`sk_${"x".repeat(32)}`)).toBeNull();
    // Revoking drops the key's counters; a hit for the revoked key would make them again.
    await revokeApiKey(tenant.organization.id, tenant.apiKeyId);
    expect(await authenticateApiKeyAndHit(tenant.apiKey)).toBeNull();
    expect(await hitSequenceExists(tenant.apiKeyId)).toBe(false);
  });

  it("counts concurrent hits of one key exactly", async () => {
    const tenant = await createTenant();
    const results = await Promise.all(Array.from({ length: 25 }, () => checkRateLimit(tenant.apiKeyId, 10)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
  });

  it("replays a POST with the same Idempotency-Key and refuses the key with another body", async () => {
    const tenant = await createTenant();
    const call = apiClient(server.url(), tenant.apiKey);
    const headers = { "Idempotency-Key": "create-cirkus-1" };
    const first = await call("/v1/venues", { method: "POST", body: venue, headers });
    expect(first.status).toBe(201);
    const second = await call("/v1/venues", { method: "POST", body: venue, headers });
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const created = await first.json();
    expect((await second.json()).id).toBe(created.id);
    // The replay names the same new resource as the first answer.
    expect(first.headers.get("location")).toBe(`/v1/venues/${created.id}`);
    expect(second.headers.get("location")).toBe(`/v1/venues/${created.id}`);
    await expectError(await call("/v1/venues", { method: "POST", body: { ...venue, capacity: 10 }, headers }), 409, "conflict");
    expect((await (await call("/v1/venues")).json()).data).toHaveLength(1);
  });

  it("never shows another organization's idempotent response", async () => {
    const [a, b] = [await createTenant(), await createTenant()];
    const headers = { "Idempotency-Key": "shared-key" };
    const fromA = await (await apiClient(server.url(), a.apiKey)("/v1/venues", { method: "POST", body: venue, headers })).json();
    const fromB = await apiClient(server.url(), b.apiKey)("/v1/venues", { method: "POST", body: venue, headers });
    expect(fromB.status).toBe(201);
    expect(fromB.headers.get("idempotent-replayed")).toBeNull();
    expect((await fromB.json()).id).not.toBe(fromA.id);
  });
});
