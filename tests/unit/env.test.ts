import os from "node:os";
import path from "node:path";
import { mkdtempSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";

describe("environment", () => {
  const dataDir = () => mkdtempSync(path.join(os.tmpdir(), "env-test-"));

  it("names every bad value in one clear message", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://x", PORT: "seventy", DATA_DIR: dataDir() })).toThrow(
      /DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL[\s\S]*PORT/,
    );
  });

  it("keeps a generated auth secret when none is configured, the same on every parse", () => {
    const dir = dataDir();
    const first = parseEnv({ DATA_DIR: dir });
    expect(first.AUTH_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(parseEnv({ DATA_DIR: dir }).AUTH_SECRET).toBe(first.AUTH_SECRET);
    expect(readFileSync(path.join(dir, "auth-secret"), "utf8")).toBe(first.AUTH_SECRET);
  });

  it("treats empty values as unset and parses flags", () => {
    const parsed = parseEnv({ DATABASE_URL: "", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", DATA_DIR: dataDir() });
    expect(parsed.DATABASE_URL).toBeUndefined();
    expect(parsed.WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(true);
    expect(parsed.PORT).toBe(3000);
    expect(parsed.NEXT_DIST_DIR).toBe(".next");
  });
});
