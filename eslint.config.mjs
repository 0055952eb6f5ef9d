import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".next-*/**", ".data/**", "node_modules/**", "next-env.d.ts", "test-results/**", "playwright-report/**"]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // lib/env.ts is the one reader of the environment; instrumentation.ts follows Next's documented check.
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "Use env from @/lib/env." }],
    },
  },
  {
    files: ["lib/env.ts", "next.config.ts", "instrumentation.ts", "tests/**", "bench/**", "playwright.config.ts", "vitest.config.ts", "lib/cli/**"],
    rules: { "no-restricted-properties": "off" },
  },
]);
