import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { SERVER_NODE_OPTIONS } from "../../lib/cli/server-node-options";

const root = path.resolve(import.meta.dirname, "..", "..");
const distDir = path.resolve(root, process.env.NEXT_DIST_DIR || ".next");
const nextCli = path.join(root, "node_modules", "next", "dist", "bin", "next");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Builds into NEXT_DIST_DIR (default .next) unless a build is there already. */
export async function ensureBuild(log: (message: string) => void): Promise<void> {
  if (existsSync(path.join(distDir, "BUILD_ID"))) return;
  log(`no build in ${path.relative(root, distDir)}; running next build`);
  const build = spawn(process.execPath, [nextCli, "build"], { cwd: root, stdio: "inherit", env: process.env });
  const code = await new Promise<number | null>((resolve) => build.once("exit", resolve));
  if (code !== 0) throw new Error(`next build failed (${code})`);
}

export interface BenchServer {
  baseUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * `next start` of the production build on a free port of 127.0.0.1, against `databaseUrl`; resolves once
 * /api/health answers, with the Node options `npm start` gives its servers. `env` adds to (or overrides) the
 * server's environment; `nodeOptions` go to its Node besides (e.g. --cpu-prof).
 */
export async function startNextServer(databaseUrl: string, env: Record<string, string> = {}, nodeOptions: string[] = []): Promise<BenchServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, ...nodeOptions, nextCli, "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: randomBytes(32).toString("hex"),
      LOG_LEVEL: "warn",
      ...env,
    },
  });
  const server: BenchServer = {
    baseUrl,
    process: child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await server.stop();
  throw new Error("next start did not become healthy within 120 s");
}

/** Interrupted runs still clean up (stop the server, drop the database) before exiting. */
export function cleanUpOnInterrupt(cleanUp: () => Promise<void>, log: (message: string) => void): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      log(`${signal}: cleaning up`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
}
