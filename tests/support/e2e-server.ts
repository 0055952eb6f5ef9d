/**
 * The web server of the Playwright run: a fresh database (PGlite in a temp directory, or a new database on
 * the PostgreSQL server of TEST_DATABASE_URL), migrated and seeded with the demo data, then `next start`
 * serving the build in NEXT_DIST_DIR. The demo credentials go to $E2E_STATE_DIR/demo.json for the tests.
 */
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createScratchDatabase } from "./scratch-database";

const E2E_AUTH_SECRET = "e2e-secret-e2e-secret-e2e-secret-0123456789";

interface DemoCredentials {
  organizationId: string;
  login: { email: string; password: string };
  apiKey: string;
}

const root = path.resolve(import.meta.dirname, "..", "..");
const port = Number(process.env.E2E_PORT);
const stateDir = process.env.E2E_STATE_DIR;
if (!port || !stateDir) throw new Error("E2E_PORT and E2E_STATE_DIR are set by playwright.config.ts");

async function freshDatabaseUrl(): Promise<{ url?: string; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { drop: async () => {} };
  return createScratchDatabase(serverUrl, "e2e");
}

async function main() {
  const dataDir = path.join(stateDir!, "data");
  mkdirSync(dataDir, { recursive: true });
  const database = await freshDatabaseUrl();
  const serverEnv: Record<string, string> = {
    AUTH_SECRET: E2E_AUTH_SECRET,
    DATA_DIR: dataDir,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    NEXT_TELEMETRY_DISABLED: "1",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    PORT: String(port),
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  };
  // lib/env reads the environment once, on import: set it before loading any app module.
  Object.assign(process.env, serverEnv);
  if (!database.url) delete process.env.DATABASE_URL;

  const { openDatabase, setDatabaseHandle } = await import("@/db/client");
  const { runMigrations } = await import("@/db/migrator");
  const { seedDemoData } = await import("@/lib/demo/seed-demo");
  const { seedFailingWebhook } = await import("./e2e-failing-webhook");
  const handle = openDatabase({ url: database.url, pgliteDir: path.join(dataDir, "pglite") });
  // The domain functions the seeding calls use the process-wide handle.
  setDatabaseHandle(handle);
  try {
    await runMigrations(handle);
    const seeded = await seedDemoData(handle.db);
    const credentials: DemoCredentials = {
      organizationId: seeded.organizationId,
      login: seeded.login,
      apiKey: seeded.apiKey,
    };
    writeFileSync(path.join(stateDir!, "demo.json"), JSON.stringify(credentials, null, 2));
    writeFileSync(path.join(stateDir!, "failing-webhook.json"), JSON.stringify(await seedFailingWebhook(), null, 2));
  } finally {
    setDatabaseHandle(undefined);
    // PGlite allows one process per data directory: the server opens it next.
    await handle.close();
  }

  const server = spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", String(port)], {
    cwd: root,
    env: { ...process.env, ...serverEnv },
    stdio: "inherit",
  });

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    if (server.exitCode === null) server.kill(signal);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  const code = await new Promise<number>((resolve) => server.on("exit", (c) => resolve(c ?? 0)));
  await database.drop();
  rmSync(stateDir!, { recursive: true, force: true });
  process.exit(stopping ? 0 : code);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
