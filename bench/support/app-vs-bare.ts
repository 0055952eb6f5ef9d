/**
 * The app beside the bare reference server (bench/bare-server.ts) in one run: for each endpoint, unmeasured
 * requests per target (RoundSize.warmUp), then REPETITIONS rounds that measure the framework's floor (the app's GET
 * /api/health), the app, then the bare server (interleaved, so load from elsewhere on the machine hits all three alike),
 * each a fixed burst at CONCURRENCY callers (throughput and the server processes' CPU per request, utime + stime from
 * /proc) and sequential requests at concurrency 1 (p50); medians over the rounds. The CPU rule sets each endpoint's
 * app against the floor and the bare server of its own rounds, not against figures measured minutes before.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { ApiEndpoint } from "./endpoints";
import { keepAliveGet } from "./http-client";
import { cpuMs } from "./process-cpu";
import { freePort } from "./server";
import { median, round } from "./stats";

const root = path.resolve(import.meta.dirname, "..", "..");
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
  /** Sequential requests (concurrency 1). */
  p50_ms: number;
}

/** The ratios the targets bound: throughput and p50 within 1.5x (pages) or 2x (small endpoints), CPU ≤ floor + bare + 0.5 ms. */
export interface ComparisonTargets {
  ratio_limit: number;
  cpu_limit_ms: number;
  cpu: boolean;
  throughput: boolean;
  p50: boolean;
}

export interface Comparison {
  endpoint: string;
  kind: ApiEndpoint["kind"];
  /** The framework's floor (GET /api/health of the app) in this endpoint's rounds. */
  floor: Round;
  app: Round;
  bare: Round;
  /** bare req/s ÷ app req/s. */
  ratio_rps: number;
  /** app p50 ÷ bare p50. */
  ratio_p50: number;
  targets: ComparisonTargets;
  /** Requests per round and unmeasured ones before the rounds, per target. */
  size: RoundSize;
  rounds: { floor: Round; app: Round; bare: Round }[];
}

/**
 * Unmeasured requests per target before a path's rounds: V8 compiles a path's code for speed only after it has run it
 * many times, so a server's first few thousand requests of a path cost it up to three times the CPU of its later ones
 * (bench/history.md, round-2026-11-28p).
 */
const WARM_UP_REQUESTS = 2_400;

export interface RoundSize {
  requests: number;
  warmUp: number;
}

/** A 1000-row page costs some 50 times a small one: this fraction of the requests keeps its rounds about as long. */
const LARGE_PAGE_DIVISOR = 8;

/** A round of `requests`, fewer for the 1000-row page (LARGE_PAGE_DIVISOR). */
export function roundSize(endpoint: string, requests: number): RoundSize {
  const divisor = endpoint.endsWith("size 1000") ? LARGE_PAGE_DIVISOR : 1;
  return { requests: Math.ceil(requests / divisor), warmUp: Math.ceil(WARM_UP_REQUESTS / divisor) };
}

export const CPU_MARGIN_MS = 0.5;
const RATIO_LIMIT: Record<ApiEndpoint["kind"], number> = { page: 1.5, small: 2 };

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

const get = (target: Target, key: string, url: string): Promise<void> =>
  keepAliveGet(target.baseUrl + url, { Authorization: `Bearer ${key}` }).catch((error: Error) => {
    throw new Error(`${target.name} ${error.message}`);
  });

/** `requests` at CONCURRENCY callers, their figures left to the caller. */
export async function burst(target: Target, key: string, path: (i: number) => string, requests: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests) await get(target, key, path(next++));
    }),
  );
}

/** `requests` at CONCURRENCY callers, then a quarter as many one after another (for the p50). */
async function roundOf(target: Target, key: string, path: (i: number) => string, requests: number): Promise<Round> {
  const cpuBefore = cpuMs(target.pid);
  const started = performance.now();
  await burst(target, key, path, requests);
  const elapsed = performance.now() - started;
  const cpu = cpuMs(target.pid) - cpuBefore;
  const latencies: number[] = [];
  for (let i = 0; i < Math.max(10, Math.ceil(requests / 4)); i++) {
    const start = performance.now();
    await get(target, key, path(i));
    latencies.push(performance.now() - start);
  }
  return { rps: round((requests / elapsed) * 1000), cpu_ms_per_request: round(cpu / requests, 3), p50_ms: round(median(latencies)) };
}

const medianRound = (rounds: Round[]): Round => ({
  rps: median(rounds.map((r) => r.rps)),
  cpu_ms_per_request: median(rounds.map((r) => r.cpu_ms_per_request)),
  p50_ms: median(rounds.map((r) => r.p50_ms)),
});

const HEALTH_PATH = () => "/api/health";

/**
 * Interleaved floor/app/bare rounds (after `size.warmUp` of the endpoint per target): the endpoint's rounds of
 * `size.requests`, the floor's of `floorSize.requests` (the floor warmed up by warmUpFloor).
 */
export async function compare(
  endpoint: ApiEndpoint,
  targets: { app: Target; bare: Target },
  key: string,
  size: RoundSize,
  floorSize: RoundSize,
): Promise<Comparison> {
  // Each target gets the same unmeasured requests.
  for (const target of [targets.app, targets.bare]) await burst(target, key, endpoint.path, size.warmUp);
  const rounds: Comparison["rounds"] = [];
  for (let i = 0; i < REPETITIONS; i++) {
    const floor = await roundOf(targets.app, key, HEALTH_PATH, floorSize.requests);
    const app = await roundOf(targets.app, key, endpoint.path, size.requests);
    rounds.push({ floor, app, bare: await roundOf(targets.bare, key, endpoint.path, size.requests) });
  }
  const floor = medianRound(rounds.map((r) => r.floor));
  const app = medianRound(rounds.map((r) => r.app));
  const bare = medianRound(rounds.map((r) => r.bare));
  const ratioRps = round(bare.rps / app.rps);
  const ratioP50 = round(app.p50_ms / bare.p50_ms);
  const limit = RATIO_LIMIT[endpoint.kind];
  const cpuLimit = round(floor.cpu_ms_per_request + bare.cpu_ms_per_request + CPU_MARGIN_MS, 3);
  return {
    endpoint: endpoint.name,
    kind: endpoint.kind,
    floor,
    app,
    bare,
    ratio_rps: ratioRps,
    ratio_p50: ratioP50,
    targets: {
      ratio_limit: limit,
      cpu_limit_ms: cpuLimit,
      cpu: app.cpu_ms_per_request <= cpuLimit,
      throughput: ratioRps <= limit,
      p50: ratioP50 <= limit,
    },
    size,
    rounds,
  };
}

/** The floor over every endpoint's rounds: medians of all of them. */
export function overallFloor(comparisons: Comparison[]): Round {
  return medianRound(comparisons.flatMap((c) => c.rounds.map((r) => r.floor)));
}

/** The app/bare table for bench/results.md. */
export function comparisonLines(comparisons: Comparison[], health: Round): string[] {
  const cell = (r: Round) => `${r.rps} / ${r.cpu_ms_per_request} / ${r.p50_ms}`;
  const yesNo = (met: boolean) => (met ? "yes" : "**no**");
  const sizes = [...new Set(comparisons.map(({ size }) => `${size.requests} after ${size.warmUp} unmeasured`))];
  return [
    `App (\`next start\`, one process) beside the bare Node reference (bench/bare-server.ts, one process), ${REPETITIONS} interleaved rounds per endpoint of requests per target (${sizes.join(", or ")}: the 1000-row page takes 1/${LARGE_PAGE_DIVISOR} as many), medians: ` +
      `req/s at concurrency ${CONCURRENCY}, server CPU ms per request over those requests (/proc utime + stime), p50 at concurrency 1. ` +
      `Framework floor (app GET /api/health, select 1), measured in each endpoint's rounds before the app: ${health.rps} req/s, ${health.cpu_ms_per_request} ms CPU per request, p50 ${health.p50_ms} ms (medians over all rounds). ` +
      `Targets: app CPU ≤ floor + bare + ${CPU_MARGIN_MS} ms, the floor and the bare server of the endpoint's own rounds; bare/app req/s and app/bare p50 ≤ 1.5 for transactions pages, ≤ 2 for the others.`,
    "",
    "| Endpoint | app req/s | bare req/s | bare/app | app CPU ms/req | bare CPU ms/req | floor CPU ms/req | CPU limit | app p50 | bare p50 | app/bare | CPU | req/s | p50 | rounds app (req/s / CPU / p50) | rounds bare | rounds floor |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|---|---|",
    ...comparisons.map(
      (c) =>
        `| ${c.endpoint} | ${c.app.rps} | ${c.bare.rps} | ${c.ratio_rps} | ${c.app.cpu_ms_per_request} | ${c.bare.cpu_ms_per_request} | ${c.floor.cpu_ms_per_request} | ${c.targets.cpu_limit_ms} | ` +
        `${c.app.p50_ms} | ${c.bare.p50_ms} | ${c.ratio_p50} | ${yesNo(c.targets.cpu)} | ${yesNo(c.targets.throughput)} | ${yesNo(c.targets.p50)} | ` +
        `${c.rounds.map((r) => cell(r.app)).join("; ")} | ${c.rounds.map((r) => cell(r.bare)).join("; ")} | ${c.rounds.map((r) => cell(r.floor)).join("; ")} |`,
    ),
  ];
}

/**
 * Waits until the server is idle (at most 2 % of a core over half a second, or 60 s): a fresh `next start` loads
 * every route's module in the background after it starts listening, which would be counted as the first
 * measurements' CPU.
 */
export async function settle(target: Target): Promise<void> {
  const deadline = Date.now() + 60_000;
  let before = cpuMs(target.pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuMs(target.pid);
    if (now - before <= 10) return;
    before = now;
  }
}

/** The floor's unmeasured requests (`size.warmUp`), then waits for the server to settle: before the first compare(). */
export async function warmUpFloor(app: Target, key: string, size: RoundSize): Promise<void> {
  await burst(app, key, HEALTH_PATH, size.warmUp);
  await settle(app);
}

/** The app's health floor as a round of its own, median of REPETITIONS (after warmUpFloor). */
export async function healthFloor(app: Target, key: string, size: RoundSize): Promise<Round> {
  await warmUpFloor(app, key, size);
  const rounds: Round[] = [];
  for (let i = 0; i < REPETITIONS; i++) rounds.push(await roundOf(app, key, HEALTH_PATH, size.requests));
  return medianRound(rounds);
}
