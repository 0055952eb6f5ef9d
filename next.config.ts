import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native/wasm database drivers must be loaded by Node at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
};

export default nextConfig;
