import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { useAppProcesses } from "../support/app-process";
import { burst } from "../support/burst";
import { usePostgresDatabasePerTest } from "../support/database";
import { createTenant } from "../support/fixtures";

const LIMIT = 30;
const REQUESTS = 80;

interface Answer {
  server: number;
  status: number;
  headers: Headers;
  body: { code?: string; error?: string; trace_id?: string };
}

describe("rate limit shared by two app processes on one database", () => {
  const database = usePostgresDatabasePerTest();
  const apps = useAppProcesses();

  it(`lets exactly ${LIMIT} of ${REQUESTS} concurrent requests through across both, and answers the rest 429 with Retry-After`, async () => {
    const tenant = await createTenant({ rateLimitPerMinute: LIMIT });
    const servers = await Promise.all([apps.start({ databaseUrl: database.url() }), apps.start({ databaseUrl: database.url() })]);

    const answers = await burst<Answer>(REQUESTS, 10, async (i) => {
      const server = i % 2;
      const response = await fetch(`${servers[server]!.url}/v1/venues`, { headers: { Authorization: `Bearer ${tenant.apiKey}` } });
      return { server, status: response.status, headers: response.headers, body: (await response.json()) as Answer["body"] };
    });

    const passed = answers.filter((a) => a.status !== 429);
    const limited = answers.filter((a) => a.status === 429);
    expect(passed.map((a) => a.status)).toEqual(Array(LIMIT).fill(200));
    expect(limited).toHaveLength(REQUESTS - LIMIT);
    // A per-process limiter would let up to LIMIT through on each; both served part of the one budget.
    expect(new Set(passed.map((a) => a.server))).toEqual(new Set([0, 1]));
    expect(new Set(limited.map((a) => a.server))).toEqual(new Set([0, 1]));
    // Hits are counted one at a time across both processes: every remaining count from LIMIT-1 down to 0 once.
    const remaining = passed.map((a) => Number(a.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => i));

    const nowSeconds = Math.floor(Date.now() / 1000);
    for (const answer of limited) {
      expect(answer.body).toEqual({ error: expect.any(String), code: "rate_limited", trace_id: answer.headers.get("x-trace-id") });
      const retryAfter = Number(answer.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 61, `Retry-After ${retryAfter}`).toBe(true);
      expect(answer.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
      expect(answer.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(answer.headers.get("x-ratelimit-reset"))).toBeGreaterThan(nowSeconds - 5);
    }

    // The budget belongs to the key, not to the organization or the server.
    const { key: otherKey } = await createApiKey({ organizationId: tenant.organization.id, name: "other", scopes: ["*"], rateLimitPerMinute: LIMIT });
    for (const server of servers) {
      const response = await fetch(`${server.url}/v1/venues`, { headers: { Authorization: `Bearer ${otherKey}` } });
      expect(response.status).toBe(200);
    }
  });
});
