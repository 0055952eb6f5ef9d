import type { NextConfig } from "next";
import { parseEnv } from "./lib/env-schema";
import { API_PREFIXES } from "./lib/http/api-prefixes";

// Not lib/env: Next.js loads this file outside its server bundles, where `server-only` refuses to load.
const env = parseEnv(process.env);

const nextConfig: NextConfig = {
  distDir: env.NEXT_DIST_DIR,
  // Native/wasm database drivers must be loaded by Node at run time, not bundled. drizzle-orm too: bundled, each
  // route would carry a copy of its classes while the one database handle (db/client.ts) is shared, so every
  // result column and query parameter would miss `instanceof` and take drizzle's slow prototype walk (is()).
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "drizzle-orm"],
  // Responses are not gzipped by the server process: compression costs more CPU than the API's own work on
  // small responses, and belongs to the reverse proxy or CDN in front of it (see README, Benchmarks).
  compress: false,
  // `npm run typecheck` checks the whole project once; the build need not do it again.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  // The API is served by Pages Router API routes (lib/http/pages-api.ts says why), under pages/api/. Its public
  // paths are rewritten to them before any page or route is looked up.
  async rewrites() {
    return {
      // One rule for every prefix: Next.js matches each rule again in every API route's request (handleRewrites),
      // compiling its pattern anew. `:path*` also matches no segment: /v1 goes to /api/v1.
      beforeFiles: [{ source: `/:prefix(${API_PREFIXES.join("|")})/:path*`, destination: "/api/:prefix/:path*" }],
      afterFiles: [],
      fallback: [],
    };
  },
  // Pages Router bundles are built like the App Router's: dependencies bundled (but for serverExternalPackages),
  // and `server-only` resolved to its server side, which the App Router gets from the react-server condition.
  bundlePagesRouterDependencies: true,
  turbopack: { resolveAlias: { "server-only": { browser: "server-only", default: "server-only/empty.js" } } },
  // forbidden(): a role without a page's permission gets a 403 (lib/dashboard/session.ts).
  experimental: { authInterrupts: true },
};

export default nextConfig;
