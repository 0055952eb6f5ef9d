import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";

const dataDir = () => mkdtempSync(path.join(os.tmpdir(), "webhook-settings-"));

describe("webhook settings from the environment", () => {
  it("default to auto-disable after 5 days of failures and 90 days of retention", () => {
    const parsed = parseEnv({ DATA_DIR: dataDir() });
    expect(parsed.WEBHOOK_AUTO_DISABLE_AFTER).toBe(5 * 86_400_000);
    expect(parsed.WEBHOOK_RETENTION_DAYS).toBe(90);
  });

  it("read a span with its unit and a whole number of days", () => {
    const parsed = parseEnv({ DATA_DIR: dataDir(), WEBHOOK_AUTO_DISABLE_AFTER: "90s", WEBHOOK_RETENTION_DAYS: "30" });
    expect(parsed.WEBHOOK_AUTO_DISABLE_AFTER).toBe(90_000);
    expect(parsed.WEBHOOK_RETENTION_DAYS).toBe(30);
    expect(parseEnv({ DATA_DIR: dataDir(), WEBHOOK_AUTO_DISABLE_AFTER: "2h" }).WEBHOOK_AUTO_DISABLE_AFTER).toBe(7_200_000);
  });

  it("name a malformed value", () => {
    expect(() => parseEnv({ DATA_DIR: dataDir(), WEBHOOK_AUTO_DISABLE_AFTER: "5 days" })).toThrow(/WEBHOOK_AUTO_DISABLE_AFTER: must be a whole number/);
    expect(() => parseEnv({ DATA_DIR: dataDir(), WEBHOOK_RETENTION_DAYS: "0" })).toThrow(/WEBHOOK_RETENTION_DAYS/);
  });
});
