/**
 * Real `next start` processes of the production build (NEXT_DIST_DIR, default .next) for fault tests, with the
 * Node options `npm start` gives its servers: each on a free port of 127.0.0.1 with its own DATABASE_URL,
 * stoppable gently (SIGTERM) or by a crash (SIGKILL).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach } from "vitest";
import { freePort } from "../../bench/support/server";
import { SERVER_NODE_OPTIONS } from "../../lib/cli/server-node-options";

const root = path.resolve(import.meta.dirname, "..", "..");
const nextCli = path.join(root, "node_modules", "next", "dist", "bin", "next");
const HEALTH_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;
const OUTPUT_KEPT_CHARS = 20_000;
// Only what Node and Next need: the test runner's own variables (NODE_ENV=test, Inngest keys a developer
// may have set) must not change how the server under test behaves.
const INHERITED = ["PATH", "HOME", "TMPDIR", "LANG", "NEXT_DIST_DIR"];

export interface AppProcess {
  url: string;
  pid: number;
  /** The end of the server's stdout and stderr, for failure messages. */
  output(): string;
  running(): boolean;
  /** Resolves when the process has exited, however it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL if it has not exited after a grace period. */
  stop(): Promise<void>;
  /** SIGKILL: the crash of a machine or an OOM kill; nothing in the process runs afterwards. */
  kill(): Promise<void>;
}

export interface AppOptions {
  databaseUrl: string;
  /** Extra environment for the server (overrides the defaults). */
  env?: Record<string, string>;
}

// The benchmarks start servers on free ports the same way.
export { freePort };

function spawnApp(port: number, options: AppOptions): AppProcess {
  const inherited = Object.fromEntries(INHERITED.flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));
  const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, nextCli, "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...inherited,
      NODE_ENV: "production",
      DATABASE_URL: options.databaseUrl,
      AUTH_SECRET: process.env.AUTH_SECRET || "faults-secret-faults-secret-faults-secret-0123",
      PORT: String(port),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      NEXT_TELEMETRY_DISABLED: "1",
      LOG_LEVEL: "warn",
      ...options.env,
    },
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-OUTPUT_KEPT_CHARS);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;

  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    output: () => output,
    running,
    exited,
    stop: async () => {
      if (!running()) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
    kill: async () => {
      if (running()) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** Polls GET /api/health until it answers 200; fails with the server's output if it exits or takes too long. */
export async function waitForHealthy(app: AppProcess, timeoutMs = HEALTH_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!app.running()) throw new Error(`next start exited before it was healthy:\n${app.output()}`);
    try {
      const response = await fetch(`${app.url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`next start was not healthy within ${timeoutMs} ms:\n${app.output()}`);
}

/**
 * Starts `next start` processes for one test and makes sure none outlives it: after each test every process
 * still running is killed, and a failed test shows what the servers wrote. Register after the database hook,
 * so the processes are gone before their database is dropped.
 */
export function useAppProcesses(): { start(options: AppOptions): Promise<AppProcess> } {
  const started: AppProcess[] = [];
  afterEach(async (context) => {
    const apps = started.splice(0);
    if (context.task.result?.state === "fail") {
      for (const app of apps) console.error(`--- output of next start (pid ${app.pid}, ${app.url}) ---\n${app.output()}`);
    }
    await Promise.all(apps.map((app) => app.kill()));
  });
  return {
    start: async (options) => {
      const app = spawnApp(await freePort(), options);
      started.push(app);
      await waitForHealthy(app);
      return app;
    },
  };
}
