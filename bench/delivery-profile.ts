/**
 * Where the delivery worker's CPU goes per delivery: `lib/cli/delivery-worker.ts` (the process `npm start` runs
 * deliveries in on PostgreSQL) runs under `node --cpu-prof` while a bulk recovery queues `--deliveries` redeliveries
 * over 4 integrations of a local receiver that answers 204; the samples from the recovery to the last first attempt
 * are summarised (self time by function and by the code that holds it), with the worker's busy ms per delivery.
 * Writes "delivery_profile" (by label) in bench/results.json and its section of bench/results.md.
 *
 *   DATABASE_URL=postgres://… npx tsx --conditions=react-server bench/delivery-profile.ts [--deliveries 2000] [--label before]
 *     [--keep-profile <dir>] (the .cpuprofile, for Chrome DevTools)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { profilerClockUs, summarizeProfile } from "./support/cpu-profile";
import { benchDatabase } from "./support/database";
import { benchLogger } from "./support/log";
import { threadCpuMs } from "./support/process-cpu";
import { readResults, saveMarkdownSection, saveResults } from "./support/results";
import { round } from "./support/stats";

const { values: args } = parseArgs({
  options: {
    deliveries: { type: "string", default: "2000" },
    label: { type: "string", default: "before" },
    "keep-profile": { type: "string" },
  },
});
const DELIVERIES = Number(args.deliveries);
const INTEGRATIONS = 4;
const root = path.resolve(import.meta.dirname, "..");
const log = benchLogger("delivery-profile");

// Before any app module reads the environment: this process only queues and announces, as a web worker does.
process.env.LOG_LEVEL ??= "warn";
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
process.env.WEBHOOK_DELIVERIES = "worker";
delete process.env.INNGEST_EVENT_KEY;
delete process.env.INNGEST_SIGNING_KEY;

const database = benchDatabase("bench_delivery_profile");
process.env.DATABASE_URL = database.url;
const handle = await database.open();
const { createOrganization } = await import("@/lib/organizations/organizations");
const { createIntegration } = await import("@/lib/webhooks/integrations");
const { recoverFailedDeliveries } = await import("@/lib/webhooks/recovery");
const { fromPublicId } = await import("@/lib/ids");

let received = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.headers["x-webhook-attempt"] === "1") received++;
    res.writeHead(204).end();
  });
});
receiver.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const organization = await createOrganization({ name: `Profile ${Date.now()}`, currency: "SEK" });
const integrations = await Promise.all(Array.from({ length: INTEGRATIONS }, () => createIntegration({ organizationId: organization.id, url })));
const each = Math.ceil(DELIVERIES / INTEGRATIONS);
const payload = JSON.stringify({ uuid: "00000000-0000-0000-0000-000000000000", items: [{ name: "Standard", quantity: 1, unit_price: 25_000 }] });
for (const integration of integrations) {
  await handle.exec(`
    insert into webhook_deliveries (organization_id, integration_id, event_type, payload, status, attempt_count, created_at)
    select '${organization.id}', '${fromPublicId("integration", integration.id)}', 'OrderCompleted', '${payload}', 'PermanentlyFailed', 5, now() - interval '1 minute'
    from generate_series(1, ${each})`);
}

const profileDir = args["keep-profile"] ? path.resolve(args["keep-profile"]) : mkdtempSync(path.join(os.tmpdir(), "delivery-prof-"));
const worker = spawn(
  process.execPath,
  ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "--conditions=react-server", "--import", "tsx", "lib/cli/delivery-worker.ts"],
  { cwd: root, stdio: ["ignore", "inherit", "inherit", "ipc"], env: { ...process.env, WEBHOOK_DELIVERIES: "in-process" } },
);
try {
  await new Promise<void>((resolve, reject) => {
    worker.on("message", (message) => message === "ready" && resolve());
    worker.once("exit", (code) => reject(new Error(`delivery worker exited with ${code} before it was ready`)));
  });
  // The worker's start-up (module loading, its first resume) is not what is measured.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const fromUs = profilerClockUs();
  // Not the profiler's own thread, which spins while it runs (a share of a core, whatever the worker does).
  const cpuOf = () => {
    const { user, system, helpers } = threadCpuMs(worker.pid!);
    return user + system + helpers;
  };
  const cpuBefore = cpuOf();
  const started = performance.now();
  for (const integration of integrations) await recoverFailedDeliveries(organization.id, integration.id, { since: new Date(Date.now() - 3_600_000) });
  const deadline = started + 300_000;
  while (received < each * INTEGRATIONS && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  const seconds = (performance.now() - started) / 1000;
  const toUs = profilerClockUs();
  const cpuUsed = cpuOf() - cpuBefore;
  const exited = new Promise((resolve) => worker.once("exit", resolve));
  worker.kill("SIGTERM");
  await exited;
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread (tsx's loader hooks run in another).
  const file = readdirSync(profileDir).find((name) => /\.0\.\d+\.cpuprofile$/.test(name));
  if (!file) throw new Error(`the delivery worker wrote no profile into ${profileDir}`);
  const summary = summarizeProfile(path.join(profileDir, file), { fromUs, toUs }, 15);
  const result = {
    measured_at: new Date().toISOString(),
    deliveries: received,
    deliveries_per_second: round(received / seconds, 1),
    cpu_ms_per_delivery: round(cpuUsed / received, 2),
    busy_ms_per_delivery: round(summary.busy_ms / received, 2),
    load_average: os.loadavg().map((n) => round(n, 2)),
    ...summary,
  };
  log(`${result.deliveries} deliveries, ${result.deliveries_per_second}/s, ${result.cpu_ms_per_delivery} ms of CPU (${result.busy_ms_per_delivery} ms busy) per delivery in the worker`);
  const stored = (readResults().delivery_profile ?? {}) as Record<string, unknown>;
  saveResults("delivery_profile", { ...stored, [args.label]: result });
  saveMarkdownSection(`delivery-profile-${args.label}`, [
    `# Delivery worker CPU profile (${args.label})`,
    "",
    `\`bench/delivery-profile.ts\`: \`lib/cli/delivery-worker.ts\` under \`node --cpu-prof\`, a bulk recovery of ${result.deliveries} redeliveries over ` +
      `${INTEGRATIONS} integrations of a local receiver (204); self time from the recovery to the last first attempt, as a share of the worker's busy ` +
      `samples. Measured ${result.measured_at}, load average ${result.load_average.join(", ")}: ${result.deliveries_per_second} deliveries/s, ` +
      `**${result.cpu_ms_per_delivery} ms of the worker's CPU per delivery** (user + system time of its threads but the profiler's; the profile's busy samples, ` +
      `${result.busy_ms_per_delivery} ms, also count waiting for a core).`,
    "",
    "| Function (self) | % | Code (self) | % |",
    "|---|---:|---|---:|",
    ...summary.functions.map(
      (f, i) => `| \`${f.name}\` | ${f.percent} | ${summary.holders[i] ? `${summary.holders[i].name} | ${summary.holders[i].percent}` : " | "} |`,
    ),
  ]);
} finally {
  if (worker.exitCode === null && worker.signalCode === null) worker.kill("SIGKILL");
  receiver.close();
  await database.drop();
  if (!args["keep-profile"]) rmSync(profileDir, { recursive: true, force: true });
}
process.exit(0);
