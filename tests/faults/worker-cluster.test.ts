import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { orders, webhookDeliveries } from "@/db/schema";
import { fromPublicId } from "@/lib/ids";
import { createIntegration } from "@/lib/webhooks/integrations";
import { freePort } from "../support/app-process";
import { burst } from "../support/burst";
import { usePostgresDatabasePerTest } from "../support/database";
import { createTenant } from "../support/fixtures";
import { insertCatalog, oneTicketOrderBody } from "../support/order-fixtures";
import { useReceivers } from "../support/receiver";

const root = path.resolve(import.meta.dirname, "..", "..");
const WORKERS = 2;
const ORDERS = 80;
const CONCURRENCY = 8;
const KILL_AFTER_CREATED = 20;
const START_TIMEOUT_MS = 120_000;
const SETTLE_TIMEOUT_MS = 60_000;

/** The pids of the primary's children whose command line matches `pattern`. */
function childPids(primary: number, pattern: string): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(primary), "-f", pattern], { encoding: "utf8" }).trim().split("\n").map(Number);
  } catch {
    return []; // pgrep exits 1 when there is none
  }
}
/** The primary's web workers (its `next start` children, titled next-server; tsx keeps an esbuild one too). */
const workerPids = (primary: number) => childPids(primary, "^next-server");
const deliveryWorkerPids = (primary: number) => childPids(primary, "lib/cli/delivery-worker\\.ts");

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) })).status === 200;
  } catch {
    return false;
  }
}

async function postOrder(url: string, apiKey: string, body: unknown): Promise<{ status: number; id?: string }> {
  try {
    const response = await fetch(`${url}/v1/orders`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, id: ((await response.json()) as { id?: string }).id };
  } catch {
    // The connection was cut by the kill: the order may or may not have committed.
    return { status: 0 };
  }
}

describe("npm start on PostgreSQL: one next start worker per core behind one port", () => {
  const database = usePostgresDatabasePerTest();
  const receiver = useReceivers();
  let primary: ChildProcess | undefined;
  let output = "";
  let dataDir = "";

  afterEach(async (context) => {
    if (context.task.result?.state === "fail") console.error(`--- output of npm start ---\n${output}`);
    if (primary && primary.exitCode === null && primary.signalCode === null) {
      const exited = new Promise((resolve) => primary!.once("exit", resolve));
      primary.kill("SIGTERM");
      const timer = setTimeout(() => primary!.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** `npm start` on the test's database, as deployed; resolves once it says it is ready with WORKERS web workers. */
  async function npmStart(): Promise<{ server: ChildProcess; url: string }> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    output = "";
    dataDir = mkdtempSync(path.join(os.tmpdir(), "worker-cluster-"));
    // The primary is this node process itself (tsx as an --import loader), so its children are the workers.
    const server = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/start.ts"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        NODE_ENV: "production",
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
        DATABASE_URL: database.url(),
        DATA_DIR: dataDir,
        PORT: String(port),
        WEB_CONCURRENCY: String(WORKERS),
        AUTH_SECRET: "faults-secret-faults-secret-faults-secret-0123",
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
        NEXT_TELEMETRY_DISABLED: "1",
        LOG_LEVEL: "warn",
      },
    });
    const keep = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-20_000));
    primary = server;
    server.stdout.on("data", keep);
    server.stderr.on("data", keep);
    await expect
      .poll(async () => (await healthy(url)) && /ready \(2 server processes\)/.test(output), { timeout: START_TIMEOUT_MS, interval: 300 })
      .toBe(true);
    return { server, url };
  }

  it("keeps serving when a worker is SIGKILLed mid-burst, loses no order or delivery, and replaces the worker", async () => {
    const tenant = await createTenant();
    const organizationId = tenant.organization.id;
    const catalog = await insertCatalog(organizationId, { tickets: [{ quantityTotal: 10_000 }] });
    const hook = await receiver(() => ({ status: 200, delayMs: 50 }));
    await createIntegration({ organizationId, url: hook.url });
    const { server, url } = await npmStart();
    const before = workerPids(server.pid!);
    expect(before).toHaveLength(WORKERS);

    // Until the primary has seen the worker die, it may still pass it a new connection (round-robin scheduling:
    // the primary accepts and passes each one on), which is then never answered nor closed: its client waits for
    // its own timeout. So the guarantee starts when the primary says the worker died, not at the kill.
    let noticedAt: number | undefined;
    server.stderr!.on("data", (chunk: Buffer) => {
      if (noticedAt === undefined && chunk.toString("utf8").includes(`Worker ${before[0]} exited`)) noticedAt = Date.now();
    });
    let created = 0;
    let killedAt: number | undefined;
    const answers = await burst(ORDERS, CONCURRENCY, async () => {
      const startedAt = Date.now();
      const answer = await postOrder(url, tenant.apiKey, oneTicketOrderBody(catalog));
      if (answer.status === 201 && ++created === KILL_AFTER_CREATED) {
        process.kill(before[0]!, "SIGKILL");
        killedAt = Date.now();
      }
      return { ...answer, startedAt };
    });
    expect(killedAt, "the kill happened mid-burst").toBeDefined();

    // Only requests in flight on the killed worker, or passed to it before the primary saw it die, were cut. A caller
    // whose request was cut sends its next one at once, and that one may be passed to the dead worker too, so the cut
    // requests can outnumber the callers (9 with 8 callers in one run: 7 started before the kill, 2 in the 53 ms before
    // the primary noticed); what holds is that every request started after the primary noticed is answered.
    expect(answers.filter((a) => a.status !== 201 && a.status !== 0)).toEqual([]);
    expect(noticedAt, "the primary saw the worker die").toBeDefined();
    const afterNoticed = answers.filter((a) => a.startedAt > noticedAt!);
    expect(afterNoticed.length).toBeGreaterThan(0);
    expect(afterNoticed.map((a) => a.status)).toEqual(afterNoticed.map(() => 201));

    // Nothing lost: every acknowledged order committed, each committed order has its delivery, all delivered.
    const committed = (await db.select({ id: orders.id }).from(orders).where(eq(orders.organizationId, organizationId))).map((o) => o.id);
    expect(committed).toEqual(expect.arrayContaining(answers.filter((a) => a.status === 201).map((a) => fromPublicId("order", a.id!)!)));
    const deliveries = async () => db.select().from(webhookDeliveries).where(eq(webhookDeliveries.organizationId, organizationId));
    expect((await deliveries()).map((d) => d.orderId).sort()).toEqual([...committed].sort());
    await expect
      .poll(async () => (await deliveries()).filter((d) => d.status !== "Success").length, { timeout: SETTLE_TIMEOUT_MS, interval: 250 })
      .toBe(0);

    // The primary replaced the dead worker.
    await expect.poll(() => workerPids(server.pid!).length, { timeout: START_TIMEOUT_MS, interval: 300 }).toBe(WORKERS);
    const after = workerPids(server.pid!);
    expect(after).not.toContain(before[0]);
    expect(after).toContain(before[1]);
    expect(await healthy(url)).toBe(true);
  });

  it("runs deliveries in a worker of their own; killed mid-burst, its replacement resumes every delivery", async () => {
    const tenant = await createTenant();
    const organizationId = tenant.organization.id;
    const catalog = await insertCatalog(organizationId, { tickets: [{ quantityTotal: 10_000 }] });
    // Slow enough that attempts are in flight when the worker dies.
    const hook = await receiver(() => ({ status: 200, delayMs: 300 }));
    await createIntegration({ organizationId, url: hook.url });
    const { server, url } = await npmStart();
    const [deliveryWorker, ...others] = deliveryWorkerPids(server.pid!);
    expect(deliveryWorker).toBeDefined();
    expect(others).toEqual([]);

    let created = 0;
    const answers = await burst(ORDERS, CONCURRENCY, async () => {
      const answer = await postOrder(url, tenant.apiKey, oneTicketOrderBody(catalog));
      if (answer.status === 201 && ++created === KILL_AFTER_CREATED) process.kill(deliveryWorker!, "SIGKILL");
      return answer;
    });
    // The web workers never noticed: every order was taken.
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    const killedWhileAttempting = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.organizationId, organizationId));
    expect(killedWhileAttempting).toHaveLength(ORDERS);

    // Its replacement released the dead worker's claims and ran everything, the orders announced meanwhile too.
    await expect.poll(() => deliveryWorkerPids(server.pid!).filter((pid) => pid !== deliveryWorker).length, { timeout: START_TIMEOUT_MS, interval: 300 }).toBe(1);
    await expect
      .poll(async () => (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.organizationId, organizationId))).filter((d) => d.status !== "Success").length, {
        timeout: SETTLE_TIMEOUT_MS,
        interval: 250,
      })
      .toBe(0);
    const delivered = new Set(hook.requests.map((r) => r.headers["x-webhook-delivery-id"]));
    expect(delivered.size).toBe(ORDERS);
    expect(deliveryWorkerPids(server.pid!)).not.toContain(deliveryWorker);
  });
});
