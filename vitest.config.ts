import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname);

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      // Tests import server modules directly, outside Next's server bundles (see server-only in the README).
      "server-only": path.join(root, "node_modules", "server-only", "empty.js"),
    },
  },
  test: {
    env: {
      AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789",
      DATA_DIR: path.join(root, ".data", "test"),
      LOG_LEVEL: "warn",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // next-auth imports `next/server` without an extension, which Node's ESM loader refuses; bundled by
          // Vite it resolves, so tests can import route modules (lib/http/route imports the dashboard auth).
          server: { deps: { inline: ["next-auth"] } },
          // One database per run; files take turns so cleaning between tests stays simple.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: "faults",
          include: ["tests/faults/**/*.test.ts"],
          // Each test runs `next start` processes of the production build; one file at a time keeps the
          // machine's cores for them.
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
