/**
 * Two builds of the app side by side (e.g. a branch's `.next` against `.next-before`, built from its base), with
 * the same interleaved rounds as the app/bare comparison, so a change's effect on CPU per request is measured
 * under the same load (on a shared machine, runs minutes apart are not comparable). Against an existing seeded
 * database and one of its API keys; prints the table and writes it under "before_after" in bench/results.json.
 *
 *   DATABASE_URL=postgres://… npx tsx --conditions=react-server bench/before-after.ts --key sk_… --before .next-before [--requests 2000]
 */
import { parseArgs } from "node:util";
import postgres from "postgres";
import { compare, healthFloor, overallFloor, roundSize, settle, warmUpFloor, type Target } from "./support/app-vs-bare";
import { benchServerUrl } from "./support/database";
import { apiEndpoints, endpointSamples } from "./support/endpoints";
import { benchLogger } from "./support/log";
import { saveResults } from "./support/results";
import { startNextServer } from "./support/server";
import { sha256Hex } from "@/lib/auth/secrets";

process.env.NEXT_TELEMETRY_DISABLED = "1";
const { values: args } = parseArgs({
  options: { key: { type: "string" }, before: { type: "string" }, requests: { type: "string", default: "2000" } },
});
if (!args.key || !args.before) throw new Error("--key sk_… and --before <dist dir of the base build> are required");
const key = args.key;
const REQUESTS = Number(args.requests);
const log = benchLogger("before-after");

const sqlc = postgres(benchServerUrl, { max: 2, onnotice: () => {} });
const [owner] = await sqlc<{ organization_id: string }[]>`select organization_id from api_keys where key_hash = ${sha256Hex(key)}`;
if (!owner) throw new Error("no such API key in DATABASE_URL's database");
const endpoints = apiEndpoints(await endpointSamples(sqlc, owner.organization_id));
await sqlc.end();

const after = await startNextServer(benchServerUrl);
const before = await startNextServer(benchServerUrl, { NEXT_DIST_DIR: args.before });
try {
  // "app" is this build, "bare" stands for the base build in compare()'s terms.
  const targets: { app: Target; bare: Target } = {
    app: { name: "app", baseUrl: after.baseUrl, pid: after.process.pid! },
    bare: { name: "bare", baseUrl: before.baseUrl, pid: before.process.pid! },
  };
  await settle(targets.bare);
  const floorSize = roundSize("GET /api/health", REQUESTS);
  // compare() measures this build's floor in every round; the base build's is measured here, once.
  const beforeFloor = await healthFloor(targets.bare, key, floorSize);
  await warmUpFloor(targets.app, key, floorSize);
  const comparisons = [];
  for (const endpoint of endpoints) {
    const c = await compare(endpoint, targets, key, roundSize(endpoint.name, REQUESTS), floorSize);
    comparisons.push(c);
    log(`${c.endpoint}: CPU ms/request before ${c.bare.cpu_ms_per_request}, after ${c.app.cpu_ms_per_request}; req/s before ${c.bare.rps}, after ${c.app.rps}`);
  }
  const floors = { after: overallFloor(comparisons), before: beforeFloor };
  log(`health floor: after ${JSON.stringify(floors.after)}, before ${JSON.stringify(floors.before)}`);
  const rows = comparisons.map((c) => ({ endpoint: c.endpoint, after: c.app, before: c.bare, rounds: c.rounds.map((r) => ({ after: r.app, before: r.bare })) }));
  saveResults("before_after", { measured_at: new Date().toISOString(), before_dist_dir: args.before, floors, endpoints: rows });
} finally {
  await after.stop();
  await before.stop();
}
