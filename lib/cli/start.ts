/**
 * `npm start`: build when needed, migrate, seed the demo organization into an empty database, then run
 * `next start` and print how to reach it. Works on a fresh clone with no configuration (PGlite under .data/).
 * On PostgreSQL it runs one `next start` worker per core (WEB_CONCURRENCY overrides) and a webhook delivery worker;
 * PGlite allows one process.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { count } from "drizzle-orm";
import { closeDatabase, databaseHandle } from "@/db/client";
import { runMigrations } from "@/db/migrator";
import { organizations } from "@/db/schema";
import { demoApiKey } from "@/lib/auth/api-keys";
import { demoBanner } from "@/lib/demo/banner";
import { DEMO_LOGIN, ensureDemoKey, findDemoOrganization, seedDemoData } from "@/lib/demo/seed-demo";
import { env, inngestCloudMode } from "@/lib/env";
import { SERVER_NODE_OPTIONS } from "./server-node-options";
import { refuseIfServerHoldsDatabase, removeServerPid, writeServerPid } from "./server-pid";
import { exitCodeOf, startWorkers, type WorkerCluster, type WorkerRole } from "./worker-cluster";

const root = process.cwd();
const distDir = path.resolve(root, env.NEXT_DIST_DIR);
const nextCli = path.join(root, "node_modules", "next", "dist", "bin", "next");
const HEALTH_TIMEOUT_MS = 120_000;

// What a build is made from; anything newer than the last build's BUILD_ID means rebuilding.
const SOURCE_DIRS = ["app", "lib", "db", "inngest", "public"];
const SOURCE_FILES = [
  "package.json",
  "package-lock.json",
  "next.config.ts",
  "tsconfig.json",
  "postcss.config.mjs",
  "instrumentation.ts",
  "proxy.ts",
];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

function buildIsStale(): boolean {
  const buildId = path.join(distDir, "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return [...SOURCE_DIRS, ...SOURCE_FILES].some((entry) => newestMtime(path.join(root, entry)) > built);
}

function runNext(args: string[]): ChildProcess {
  return spawn(process.execPath, [nextCli, ...args], { stdio: "inherit", env: process.env });
}

async function build(): Promise<void> {
  console.log(`Building the app into ${path.relative(root, distDir)} (sources changed or no build yet)…`);
  const child = runNext(["build"]);
  const code = await new Promise<number>((resolve) => child.on("exit", (c, s) => resolve(exitCodeOf(c, s))));
  if (code !== 0) {
    console.error(`next build failed with exit code ${code}`);
    process.exit(code);
  }
}

/** Migrates, seeds an empty database, and returns the demo credentials when a demo organization exists. */
async function prepareDatabase() {
  const handle = databaseHandle();
  try {
    await runMigrations(handle);
    const [existing] = await handle.db.select({ n: count() }).from(organizations);
    if (!existing?.n) {
      console.log("Empty database: creating the demo organization…");
      return await seedDemoData();
    }
    const demoOrganization = await findDemoOrganization();
    if (!demoOrganization) return null;
    await ensureDemoKey(demoOrganization);
    return { login: DEMO_LOGIN, apiKey: demoApiKey() };
  } finally {
    // PGlite allows one process per data directory: the server opens it next.
    await closeDatabase();
  }
}

async function waitForHealth(port: number, server: WorkerCluster): Promise<boolean> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline && server.running()) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return false;
}

refuseIfServerHoldsDatabase();
if (buildIsStale()) await build();
const demo = await prepareDatabase();

const port = env.PORT;
const workers = env.DATABASE_URL ? (env.WEB_CONCURRENCY ?? availableParallelism()) : 1;
// On PostgreSQL the embedded engine's deliveries leave the web workers' event loops: the web workers only write
// and announce them, a delivery worker of its own runs them (as an Inngest server would). PGlite is one process.
const deliveryWorker = Boolean(env.DATABASE_URL) && !inngestCloudMode;
const web: WorkerRole = {
  count: workers,
  script: nextCli,
  args: ["start", "-p", String(port)],
  // No tsx loader: the web workers run Next's own CLI.
  execArgv: [...SERVER_NODE_OPTIONS],
  env: deliveryWorker ? { WEBHOOK_DELIVERIES: "worker" } : undefined,
  upWhen: "listening",
};
const deliveries: WorkerRole = {
  count: 1,
  script: path.join(root, "lib", "cli", "delivery-worker.ts"),
  args: [],
  // The tsx loader and conditions this script runs with.
  execArgv: process.execArgv,
  env: { WEBHOOK_DELIVERIES: "in-process" },
  upWhen: "ready",
};
const server = startWorkers(deliveryWorker ? [web, deliveries] : [web]);
// The primary stands for the server: it lives as long as any worker holds the database.
writeServerPid(process.pid);
void server.stopped.then((code) => {
  removeServerPid(process.pid);
  process.exit(code);
});

if (await waitForHealth(port, server)) {
  const url = env.PUBLIC_URL ?? `http://localhost:${port}`;
  console.log(
    [
      "",
      `Ticketing service is ready (${workers} server process${workers === 1 ? "" : "es"})${deliveryWorker ? ", webhooks delivered by a worker process of their own" : ""}.`,
      demo ? demoBanner(demo, url) : `  URL:          ${url}`,
      "",
      "Press Ctrl+C to stop.",
      "",
    ].join("\n"),
  );
} else if (server.running()) {
  console.error(`The server did not answer GET /api/health with 200 within ${HEALTH_TIMEOUT_MS / 1000} s; it keeps running.`);
}
