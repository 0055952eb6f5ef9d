import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// Playwright loads this file again in every worker; values chosen here travel to the workers (and to
// the web server) through the environment, so they are picked once, in the first process.
process.env.E2E_PORT ??= execFileSync(process.execPath, [
  "-e",
  "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
]).toString();
process.env.E2E_STATE_DIR ??= mkdtempSync(path.join(os.tmpdir(), "ticketing-e2e-"));

const port = Number(process.env.E2E_PORT);
// Auth.js builds its URLs from the Host header; it must be the same name the browser uses.
const baseURL = `http://localhost:${port}`;
const chromium = "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    ...devices["Desktop Chrome"],
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      ...(existsSync(chromium) ? { executablePath: chromium } : {}),
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: {
    command: "npx tsx --conditions=react-server tests/support/e2e-server.ts",
    url: `${baseURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    // SIGTERM lets the script stop `next start` and drop its database before it exits.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    env: {
      E2E_PORT: String(port),
      E2E_STATE_DIR: process.env.E2E_STATE_DIR,
    },
  },
});
