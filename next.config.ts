import type { NextConfig } from "next";
import { parseEnv } from "./lib/env-schema";

// Not lib/env: Next.js loads this file outside its server bundles, where `server-only` refuses to load.
const env = parseEnv(process.env);

const nextConfig: NextConfig = {
  distDir: env.NEXT_DIST_DIR,
  // Native/wasm database drivers must be loaded by Node at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  // `npm run typecheck` checks the whole project once; the build need not do it again.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  // forbidden(): a role without a page's permission gets a 403 (lib/dashboard/session.ts).
  experimental: { authInterrupts: true },
};

export default nextConfig;
