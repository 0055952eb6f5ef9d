/**
 * The app beside the bare reference server (bench/bare-server.ts) in one run: for each endpoint, REPETITIONS rounds
 * that measure the app then the bare server (interleaved, so load from elsewhere on the machine hits both alike),
 * each a fixed burst at CONCURRENCY callers; throughput and the server process's CPU per request (utime + stime
 * from /proc), medians over the rounds. GET /api/health of the app is the framework's floor.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { freePort } from "./server";
import { percentile, round } from "./stats";

const root = path.resolve(import.meta.dirname, "..", "..");
const CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ
export const REPETITIONS = 3;
export const CONCURRENCY = 16;

export interface Target {
  name: "app" | "bare";
  baseUrl: string;
  pid: number;
}

export interface Round {
  rps: number;
  cpu_ms_per_request: number;
}

export interface Comparison {
  endpoint: string;
  app: Round;
  bare: Round;
  ratio_rps: number;
  rounds: { app: Round; bare: Round }[];
}

/** CPU time the process has used so far, in ms. */
function cpuMs(pid: number): number {
  // Fields after the command's closing parenthesis: state is field 3, utime 14 and stime 15.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

export async function startBareServer(databaseUrl: string): Promise<{ target: Target; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "bench/bare-server.ts"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the bare server exited with ${child.exitCode}`);
    if ((await fetch(`${baseUrl}/api/health`).catch(() => null))?.ok) return { target: { name: "bare", baseUrl, pid: child.pid! }, process: child };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill("SIGKILL");
  throw new Error("the bare server did not answer /api/health within 60 s");
}

async function burstOf(target: Target, key: string, path: (i: number) => string, requests: number): Promise<Round> {
  const headers = { Authorization: `Bearer ${key}` };
  let next = 0;
  const cpuBefore = cpuMs(target.pid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests) {
        const url = target.baseUrl + path(next++);
        const response = await fetch(url, { headers });
        if (response.status !== 200) throw new Error(`${target.name} ${url} → ${response.status} ${await response.text()}`);
        await response.arrayBuffer();
      }
    }),
  );
  const elapsed = performance.now() - started;
  return { rps: round((requests / elapsed) * 1000), cpu_ms_per_request: round((cpuMs(target.pid) - cpuBefore) / requests, 3) };
}

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

/** Interleaved app/bare rounds of `requests` each (after one warm-up burst per target). */
export async function compare(
  endpoint: string,
  targets: { app: Target; bare: Target },
  key: string,
  path: (i: number) => string,
  requests: number,
): Promise<Comparison> {
  await burstOf(targets.app, key, path, CONCURRENCY);
  await burstOf(targets.bare, key, path, CONCURRENCY);
  const rounds: { app: Round; bare: Round }[] = [];
  for (let i = 0; i < REPETITIONS; i++) {
    rounds.push({ app: await burstOf(targets.app, key, path, requests), bare: await burstOf(targets.bare, key, path, requests) });
  }
  const mid = (side: "app" | "bare"): Round => ({
    rps: median(rounds.map((r) => r[side].rps)),
    cpu_ms_per_request: median(rounds.map((r) => r[side].cpu_ms_per_request)),
  });
  const app = mid("app");
  const bare = mid("bare");
  return { endpoint, app, bare, ratio_rps: round(bare.rps / app.rps), rounds };
}

/** The app/bare table for bench/results.md. */
export function comparisonLines(comparisons: Comparison[], health: Round): string[] {
  const cell = (r: Round) => `${r.rps} / ${r.cpu_ms_per_request}`;
  return [
    `App (\`next start\`, one process) beside the bare Node reference (bench/bare-server.ts, one process), concurrency ${CONCURRENCY}, ` +
      `${REPETITIONS} interleaved rounds, medians; each round's req/s and server CPU ms per request are listed too. ` +
      `Framework floor (app GET /api/health, select 1): ${health.rps} req/s, ${health.cpu_ms_per_request} ms CPU per request. ` +
      "Target per endpoint: app CPU ≤ floor + bare + 0.5 ms.",
    "",
    "| Endpoint | app req/s | bare req/s | bare/app | app CPU ms/req | bare CPU ms/req | CPU target met | rounds app (req/s / CPU ms) | rounds bare |",
    "|---|---:|---:|---:|---:|---:|---|---|---|",
    ...comparisons.map((c) => {
      const met = c.app.cpu_ms_per_request <= health.cpu_ms_per_request + c.bare.cpu_ms_per_request + 0.5;
      return `| ${c.endpoint} | ${c.app.rps} | ${c.bare.rps} | ${c.ratio_rps} | ${c.app.cpu_ms_per_request} | ${c.bare.cpu_ms_per_request} | ${met ? "yes" : "**no**"} | ${c.rounds.map((r) => cell(r.app)).join("; ")} | ${c.rounds.map((r) => cell(r.bare)).join("; ")} |`;
    }),
  ];
}

/** The app's health floor as a round of its own, median of REPETITIONS. */
export async function healthFloor(app: Target, key: string, requests: number): Promise<Round> {
  const rounds: Round[] = [];
  for (let i = 0; i < REPETITIONS; i++) rounds.push(await burstOf(app, key, () => "/api/health", requests));
  return { rps: median(rounds.map((r) => r.rps)), cpu_ms_per_request: median(rounds.map((r) => r.cpu_ms_per_request)) };
}
