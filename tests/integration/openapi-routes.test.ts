import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_PREFIXES } from "@/lib/http/api-prefixes";
import type { Operation } from "@/lib/http/operation";
import type { Endpoint } from "@/lib/http/route";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { OPERATIONS } from "@/lib/openapi/operations";

// Route modules are imported here, so this file starts no Next.js server: the two would share Next's
// request-scoped storage in one process.
const root = path.resolve(import.meta.dirname, "..", "..");
const API_DIRS = API_PREFIXES.map((prefix) => `pages/api/${prefix}`);

interface RouteModule {
  file: string;
  /** The route's URL path in OpenAPI form, from its folders (`[id]` → `{id}`). */
  path: string;
  /** The endpoints the module exports, by HTTP method. */
  endpoints: Map<string, Endpoint>;
}

/** Every route file of the API (pages/api/…), imported, with the endpoints (handlers that carry an operation) it serves. */
async function routeModules(): Promise<RouteModule[]> {
  const found: RouteModule[] = [];
  for (const dir of API_DIRS) {
    for (const entry of readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })) {
      if (!entry.endsWith(".ts")) continue;
      const segments = entry.replace(/(^|\/)index\.ts$|\.ts$/, "").split(path.sep).filter(Boolean);
      // Catch-all segments only answer unknown paths with the API's 404 body; they are no operation.
      if (segments.some((s) => s.startsWith("[..") || s.startsWith("[[..."))) continue;
      const urlPath = "/" + [dir.replace(/^pages\/api\//, ""), ...segments.map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))].join("/");
      const served = ((await import(path.join(root, dir, entry))) as { default: { endpoints?: readonly Endpoint[] } }).default;
      const endpoints = new Map((served.endpoints ?? []).map((handler) => [handler.operation.method.toUpperCase(), handler]));
      found.push({ file: path.join(dir, entry), path: urlPath, endpoints });
    }
  }
  return found;
}

describe("API route files", () => {
  const document = buildOpenApiDocument();

  it("has exactly one route export per operation, at the operation's path and method", async () => {
    const routes = await routeModules();
    expect(routes.length).toBeGreaterThanOrEqual(14);
    const served: Operation[] = [];
    for (const route of routes) {
      expect(route.endpoints.size, `${route.file} exports no endpoint`).toBeGreaterThan(0);
      for (const [method, handler] of route.endpoints) {
        const op = handler.operation;
        expect(`${op.method} ${op.path}`, route.file).toBe(`${method.toLowerCase()} ${route.path}`);
        expect(OPERATIONS, `${op.operationId} (${route.file}) is not in the document's list`).toContain(op);
        expect(document.paths[route.path]?.[op.method]).toBeDefined();
        served.push(op);
      }
    }
    expect(new Set(served)).toEqual(new Set(OPERATIONS));
    expect(served).toHaveLength(OPERATIONS.length);
  });
});
