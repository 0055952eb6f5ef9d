import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchDatabase, type BenchDatabase } from "./database";
import { childPids, commandLine, cpuMs } from "./process-cpu";
import { cleanUpOnInterrupt, freePort } from "./server";

const root = path.resolve(import.meta.dirname, "..", "..");

export interface NpmStart {
  baseUrl: string;
  /** Web server processes `npm start` reported (its cluster workers; the delivery worker not counted). */
  serverProcesses: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * `npm start` exactly as on a PostgreSQL deployment (lib/cli/start.ts: the cluster of web workers and the delivery
 * worker), on a free port of 127.0.0.1, resolved once it prints that it is ready. `env` adds to or overrides the
 * bench's own environment (DATABASE_URL, DATA_DIR and AUTH_SECRET at least).
 */
export async function startNpmStart(env: Record<string, string>): Promise<NpmStart> {
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/start.ts"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { DB_POOL_MAX: "8", ...process.env, NODE_ENV: "production", ...env, PORT: String(port) },
  });
  for (const stream of [child.stdout!, child.stderr!]) stream.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + 300_000;
  while (!/Ticketing service is ready \((\d+) server process/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  const serverProcesses = Number(/ready \((\d+) server process/.exec(output)![1]);
  return { baseUrl: `http://127.0.0.1:${port}`, serverProcesses, process: child, stop };
}

/** The application_name pattern of the app's PostgreSQL sessions (sessionName in db/client.ts). */
export const APP_SESSIONS = "ticketing %";

/** `npm start`'s delivery worker, which it runs on PostgreSQL without Inngest keys (lib/cli/start.ts). */
export function deliveryWorkerPid(serverPid: number): number {
  const pid = childPids(serverPid).find((child) => commandLine(child).includes("delivery-worker"));
  if (!pid) throw new Error("npm start runs no delivery worker");
  return pid;
}

/** CPU time (ms) `npm start`'s processes have used so far: its web workers with the primary, and its delivery worker. */
export function npmStartCpuMs(serverPid: number): { web: number; delivery_worker: number } {
  const deliveryWorker = cpuMs(deliveryWorkerPid(serverPid));
  return { web: cpuMs(serverPid) - deliveryWorker, delivery_worker: deliveryWorker };
}

export interface NpmStartBench {
  database: BenchDatabase;
  /** Starts `npm start` on the bench database and its own data directory; stopped by `cleanUp` if still running. */
  start(env?: Record<string, string>): Promise<NpmStart>;
  /** Stops the server, drops the database and removes the data directory (also on SIGINT/SIGTERM). */
  cleanUp(): Promise<void>;
}

/** A benchmark against `npm start`: a database `<prefix>_<timestamp>`, a data directory and the server's lifetime. */
export function npmStartBench(prefix: string, authSecret: string, log: (message: string) => void): NpmStartBench {
  const database = benchDatabase(prefix);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `${prefix.replaceAll("_", "-")}-`));
  let running: NpmStart | undefined;
  const cleanUp = async () => {
    await running?.stop();
    await database.drop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  };
  cleanUpOnInterrupt(cleanUp, log);
  return {
    database,
    start: async (env = {}) => (running = await startNpmStart({ DATABASE_URL: database.url, DATA_DIR: dataDir, AUTH_SECRET: authSecret, ...env })),
    cleanUp,
  };
}
