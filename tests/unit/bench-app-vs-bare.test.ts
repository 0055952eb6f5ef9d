import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { compare, CPU_MARGIN_MS, overallFloor, REPETITIONS, type Target } from "../../bench/support/app-vs-bare";
import { median, round } from "../../bench/support/stats";

/** A server that answers every GET with 200 and logs the paths asked for, in order. */
async function loggingServer(name: Target["name"]): Promise<{ target: Target; paths: string[]; close: () => Promise<void> }> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? "");
    res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    target: { name, baseUrl: `http://127.0.0.1:${port}`, pid: process.pid },
    paths,
    close: () => {
      // The benchmarks' client keeps its sockets alive.
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Consecutive equal paths as [path, count] pairs. */
function runsOf(paths: string[]): [string, number][] {
  const runs: [string, number][] = [];
  for (const path of paths) {
    const last = runs.at(-1);
    if (last?.[0] === path) last[1]++;
    else runs.push([path, 1]);
  }
  return runs;
}

/**
 * The CPU rule (app ≤ floor + bare + 0.5 ms) compares three figures, so `npm run bench` measures all three in the same
 * rounds: each endpoint's round is the framework floor (the app's GET /api/health), then the app, then the bare server,
 * and the endpoint's limit uses its own rounds' floor, not one measured minutes before the first endpoint.
 */
describe("the benchmark's app/bare comparison", () => {
  let app: Awaited<ReturnType<typeof loggingServer>>;
  let bare: Awaited<ReturnType<typeof loggingServer>>;

  beforeAll(async () => {
    app = await loggingServer("app");
    bare = await loggingServer("bare");
  });

  afterAll(async () => {
    await app.close();
    await bare.close();
  });

  it("measures the floor in every round, right before the app, and judges the endpoint against that floor", async () => {
    const endpoint = { name: "GET /x", kind: "small" as const, path: () => "/x" };
    const size = { requests: 40, warmUp: 12 };
    const floorSize = { requests: 32, warmUp: 0 };
    const comparison = await compare(endpoint, { app: app.target, bare: bare.target }, "sk_test", size, floorSize);

    // A round is a burst of `requests` at concurrency 16, then max(10, requests / 4) one after another for the p50.
    const floorRound = floorSize.requests + 10;
    const appRound = size.requests + 10;
    expect(runsOf(app.paths)).toEqual([
      ["/x", size.warmUp],
      ...Array.from({ length: REPETITIONS }, () => [
        ["/api/health", floorRound],
        ["/x", appRound],
      ]).flat(),
    ]);
    expect(runsOf(bare.paths)).toEqual([["/x", size.warmUp + REPETITIONS * appRound]]);

    expect(comparison.rounds).toHaveLength(REPETITIONS);
    const floorCpu = comparison.rounds.map((r) => r.floor.cpu_ms_per_request);
    expect(comparison.floor.cpu_ms_per_request).toBe(median(floorCpu));
    const limit = round(comparison.floor.cpu_ms_per_request + comparison.bare.cpu_ms_per_request + CPU_MARGIN_MS, 3);
    expect(comparison.targets.cpu_limit_ms).toBe(limit);
    expect(comparison.targets.cpu).toBe(comparison.app.cpu_ms_per_request <= comparison.targets.cpu_limit_ms);
    expect(overallFloor([comparison, comparison]).cpu_ms_per_request).toBe(median([...floorCpu, ...floorCpu]));
  });
});
