import { describe, expect, it, vi } from "vitest";
import { OPERATIONS } from "@/lib/openapi/operations";
import { useTestDatabase } from "../support/database";
import { useTestServer } from "../support/server";

// Inngest keys switch /api/inngest to the real serve handler, whose responses must carry X-Trace-Id too.
// INNGEST_BASE_URL points nowhere, so nothing here reaches Inngest.
vi.stubEnv("INNGEST_EVENT_KEY", "test-event-key");
vi.stubEnv("INNGEST_SIGNING_KEY", `signkey-test-${"ab".repeat(32)}`);
vi.stubEnv("INNGEST_BASE_URL", "http://127.0.0.1:9");

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const TRACE_ID = /^[0-9a-f]{24}$/;

/** Each API path (ids filled with placeholders) with the methods its operations serve, in the order Allow lists them. */
function servedPaths(): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const op of OPERATIONS) {
    const path = op.path.replace(/\{[^}]+\}/g, "x_unknown");
    byPath.set(path, [...(byPath.get(path) ?? []), op.method.toUpperCase()]);
  }
  for (const [path, methods] of byPath) byPath.set(path, METHODS.filter((m) => methods.includes(m)));
  return byPath;
}

describe("OPTIONS and X-Trace-Id on API paths", () => {
  useTestDatabase();
  const server = useTestServer();

  it("answers OPTIONS with 204 and an Allow listing exactly the methods the path serves", async () => {
    const paths = servedPaths();
    expect(paths.size).toBeGreaterThanOrEqual(13);
    for (const [path, served] of paths) {
      const options = await fetch(`${server.url()}${path}`, { method: "OPTIONS" });
      expect(options.status, path).toBe(204);
      expect(options.headers.get("allow"), path).toBe(served.join(", "));
      expect(options.headers.get("x-trace-id"), path).toMatch(TRACE_ID);
      for (const method of METHODS) {
        // Unauthenticated: a served method answers 401, any other 405 with the same Allow.
        const response = await fetch(`${server.url()}${path}`, { method });
        expect(response.status, `${method} ${path}`).toBe(served.includes(method) ? 401 : 405);
        expect(response.headers.get("x-trace-id"), `${method} ${path}`).toMatch(TRACE_ID);
        if (!served.includes(method)) expect(response.headers.get("allow")).toBe(served.join(", "));
      }
    }
  });

  it("gives unknown API paths a JSON 404 with X-Trace-Id for every method, OPTIONS included", async () => {
    // The /api/… paths are where next.config.ts rewrites the API's paths to; they are no address of their own.
    for (const path of ["/v1/nope", "/analytics_search/nope", "/webhooks/nope/deeper", "/api/v1/venues", "/api/webhooks/integrations", "/api/analytics_search/api/transactions?size=1"]) {
      for (const method of [...METHODS, "OPTIONS"]) {
        const response = await fetch(`${server.url()}${path}`, { method });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.headers.get("x-trace-id"), `${method} ${path}`).toMatch(TRACE_ID);
        expect(await response.json()).toMatchObject({ code: "not_found", trace_id: response.headers.get("x-trace-id") });
      }
    }
  });

  it("puts X-Trace-Id on health, the OpenAPI document and Inngest's serve handler, OPTIONS included", async () => {
    for (const [path, allow] of [
      ["/api/health", "GET"],
      ["/api/openapi.json", "GET"],
      ["/api/inngest", "GET, POST, PUT"],
    ] as const) {
      const options = await fetch(`${server.url()}${path}`, { method: "OPTIONS" });
      expect(options.status, path).toBe(204);
      expect(options.headers.get("allow"), path).toBe(allow);
      expect(options.headers.get("x-trace-id"), path).toMatch(TRACE_ID);
      const get = await fetch(`${server.url()}${path}`);
      expect(get.headers.get("x-trace-id"), `GET ${path}`).toMatch(TRACE_ID);
    }
    // An unsigned execution request: refused by the SDK, still traced.
    const post = await fetch(`${server.url()}/api/inngest?fnId=ticketing-deliver-webhook&stepId=step`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(post.status).toBe(401);
    expect(post.headers.get("x-trace-id")).toMatch(TRACE_ID);
  });
});
