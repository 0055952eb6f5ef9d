import type { NextConfig } from "next";
import { env } from "./lib/env";

const nextConfig: NextConfig = {
  distDir: env.NEXT_DIST_DIR,
  // Native/wasm database drivers must be loaded by Node at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  // `npm run typecheck` checks the whole project once; the build need not do it again.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
};

export default nextConfig;
