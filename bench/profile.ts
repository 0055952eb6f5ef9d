/**
 * Where the app's CPU goes per endpoint: for each API endpoint of the app/bare comparison, `next start` of the
 * production build runs under `node --cpu-prof`, takes a warm-up, settles, and then REQUESTS requests at concurrency 16,
 * and the samples of the loaded window are summarised (self time by function and by the code that holds it).
 * Writes the summaries under "profile" in bench/results.json and its section of bench/results.md, labelled
 * (e.g. "before" / "after" a change), keeping the other label's section.
 *
 * Runs against an existing seeded database (admin seed-orders) and one of its API keys with orders:read,
 * events:read and venues:read:
 *
 *   DATABASE_URL=postgres://… npx tsx --conditions=react-server bench/profile.ts --key sk_… [--label after] [--requests 1500]
 *     [--only <part of an endpoint's name>] [--keep-profiles <dir>] (the .cpuprofile files, for Chrome DevTools)
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { burst, CONCURRENCY, settle, type Target } from "./support/app-vs-bare";
import { profilerClockUs, summarizeProfile, type ProfileSummary } from "./support/cpu-profile";
import { benchServerUrl } from "./support/database";
import { apiEndpoints, endpointSamples } from "./support/endpoints";
import { benchLogger } from "./support/log";
import { threadCpuMs } from "./support/process-cpu";
import { readResults, saveMarkdownSection, saveResults } from "./support/results";
import { ensureBuild, startNextServer } from "./support/server";
import { round } from "./support/stats";
import { sha256Hex } from "@/lib/auth/secrets";

process.env.NEXT_TELEMETRY_DISABLED = "1";

const { values: args } = parseArgs({
  options: {
    key: { type: "string" },
    label: { type: "string", default: "before" },
    requests: { type: "string", default: "1500" },
    only: { type: "string" },
    "keep-profiles": { type: "string" },
  },
});
if (!args.key) throw new Error("--key sk_… (an API key of the seeded organization) is required");
const key = args.key;
const REQUESTS = Number(args.requests);
const log = benchLogger("profile");

const sqlc = postgres(benchServerUrl, { max: 2, onnotice: () => {} });
const [owner] = await sqlc<{ organization_id: string }[]>`select organization_id from api_keys where key_hash = ${sha256Hex(key)}`;
if (!owner) throw new Error("no such API key in DATABASE_URL's database");
const endpoints = apiEndpoints(await endpointSamples(sqlc, owner.organization_id)).filter(
  (endpoint) => !args.only || endpoint.name.includes(args.only),
);
await sqlc.end();
await ensureBuild(log);

/**
 * An endpoint's profile with the server's CPU per request over the same window, from /proc: its main thread's user and
 * system time (the thread the samples are of) and its other threads' (garbage collection and compiler helpers). The
 * busy samples also count the main thread's time off the CPU within a system call (a socket write that wakes the
 * reader, which then takes the core), so only the CPU time says what a share of the samples costs.
 */
type EndpointProfile = ProfileSummary & { main_user_ms_per_request: number; main_system_ms_per_request: number; helpers_ms_per_request: number };
const perRequest = (ms: number) => round(ms / REQUESTS, 3);

const summaries: Record<string, EndpointProfile> = {};
for (const endpoint of endpoints) {
  const dir = args["keep-profiles"]
    ? path.resolve(args["keep-profiles"], endpoint.name.replace(/[^a-z0-9]+/gi, "-"))
    : mkdtempSync(path.join(tmpdir(), "cpu-prof-"));
  const server = await startNextServer(benchServerUrl, {}, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
  const target: Target = { name: "app", baseUrl: server.baseUrl, pid: server.process.pid! };
  try {
    // As many requests again before the window: V8 compiles a path's code for speed only after many runs of it
    // (support/app-vs-bare.ts, warmUp).
    await burst(target, key, endpoint.path, REQUESTS);
    // Not the background loading of every route's module that follows a start.
    await settle(target);
    const fromUs = profilerClockUs();
    const cpuBefore = threadCpuMs(target.pid);
    await burst(target, key, endpoint.path, REQUESTS);
    const cpuAfter = threadCpuMs(target.pid);
    const toUs = profilerClockUs();
    await server.stop();
    const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
    if (!file) throw new Error(`next start wrote no profile into ${dir}`);
    const summary = {
      ...summarizeProfile(path.join(dir, file), { fromUs, toUs }),
      main_user_ms_per_request: perRequest(cpuAfter.user - cpuBefore.user),
      main_system_ms_per_request: perRequest(cpuAfter.system - cpuBefore.system),
      helpers_ms_per_request: perRequest(cpuAfter.helpers - cpuBefore.helpers),
    };
    summaries[endpoint.name] = summary;
    log(`${endpoint.name}: ${headline(summary)}; ${summary.functions.slice(0, 3).map((f) => `${f.name} ${f.percent} %`).join(", ")}`);
  } finally {
    await server.stop();
    if (!args["keep-profiles"]) rmSync(dir, { recursive: true, force: true });
  }
}

function headline(summary: EndpointProfile): string {
  const main = summary.main_user_ms_per_request + summary.main_system_ms_per_request;
  return (
    `${(summary.busy_ms / REQUESTS).toFixed(2)} ms busy per request; CPU per request: main thread ${main.toFixed(3)} ms ` +
    `(user ${summary.main_user_ms_per_request}, system ${summary.main_system_ms_per_request}), other threads ${summary.helpers_ms_per_request} ms`
  );
}

const stored = (readResults().profile ?? {}) as Record<string, unknown>;
saveResults("profile", { ...stored, [args.label]: { measured_at: new Date().toISOString(), requests: REQUESTS, endpoints: summaries } });
const lines = [
  `# CPU profile (${args.label})`,
  "",
  `\`bench/profile.ts\`: \`next start\` under \`node --cpu-prof\`, ${REQUESTS} requests per endpoint at concurrency ${CONCURRENCY} after a warm-up; ` +
    "self time of the loaded window, as a share of its busy (non-idle) samples. Minified functions of the server bundles are named by chunk:line:column. " +
    "The server's CPU over the same window (/proc, the profiler's own thread left out) is in each heading: where the busy samples exceed the " +
    "main thread's, the excess is its time off the CPU within a system call, mostly the socket writes (`writeBuffer`, `writev`: a write wakes " +
    "the reader, which takes the core), so their share of the samples is mostly not CPU; the main thread's system time bounds what they cost. " +
    "The sampling adds CPU of its own: the app's CPU per request without it is in the API benchmark.",
  "",
  ...Object.entries(summaries).flatMap(([name, summary]) => [
    `## ${name}: ${headline(summary)}`,
    "",
    "| Function (self) | % | Code (self) | % |",
    "|---|---:|---|---:|",
    ...summary.functions.map(
      (f, i) => `| \`${f.name}\` | ${f.percent} | ${summary.holders[i] ? `${summary.holders[i].name} | ${summary.holders[i].percent}` : " | "} |`,
    ),
    "",
  ]),
];
saveMarkdownSection(`profile-${args.label}`, lines);
