import { chromium } from "@playwright/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { orders } from "@/db/schema";
import { fromPublicId } from "@/lib/ids";
import { useAppProcesses } from "../support/app-process";
import { burst } from "../support/burst";
import { usePostgresDatabasePerTest } from "../support/database";
import { createTenant, TENANT_PASSWORD } from "../support/fixtures";
import { insertCatalog, oneTicketOrderBody } from "../support/order-fixtures";
import { createPrivateCluster, type PrivateCluster } from "../support/private-cluster";

// Far above a refused connection (instant) or the driver's connect timeout, far below a hung request.
const ANSWER_WITHIN_MS = 10_000;
const RECOVERY_TIMEOUT_MS = 15_000;
const ORDERS_BEFORE_STOP = 5;
// More requests in flight than the app's connection pool has connections, so every connection is busy
// when the server goes away.
const IN_FLIGHT = 12;

interface Timed {
  status: number;
  ms: number;
  headers: Headers;
  text: string;
}

async function timedFetch(url: string, init: RequestInit = {}): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(ANSWER_WITHIN_MS * 3) });
  const text = await response.text();
  return { status: response.status, ms: performance.now() - started, headers: response.headers, text };
}

/** The API's error body for an unreachable database: only error, code and trace id; no stack, no driver text. */
function expectUnavailable(answer: Timed) {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.ms).toBeLessThan(ANSWER_WITHIN_MS);
  expect(JSON.parse(answer.text)).toEqual({
    error: expect.any(String),
    code: "service_unavailable",
    trace_id: answer.headers.get("x-trace-id"),
  });
  expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
}

describe("database outage: a real PostgreSQL server stopped and started under a running app", () => {
  let cluster: PrivateCluster | undefined;
  beforeAll(async () => {
    cluster = await createPrivateCluster();
  });
  afterAll(async () => {
    await cluster?.drop();
  });
  const database = usePostgresDatabasePerTest(() => cluster!.url);
  const apps = useAppProcesses();

  it("answers 503 with the error body quickly while it is down, and recovers by itself once it is back", async () => {
    const tenant = await createTenant();
    const catalog = await insertCatalog(tenant.organization.id, { tickets: [{ quantityTotal: 10_000 }] });
    const app = await apps.start({ databaseUrl: database.url() });
    const headers = { Authorization: `Bearer ${tenant.apiKey}`, "Content-Type": "application/json" };
    const order = JSON.stringify(oneTicketOrderBody(catalog));
    const postOrder = () => timedFetch(`${app.url}/v1/orders`, { method: "POST", headers, body: order });
    const listVenues = () => timedFetch(`${app.url}/v1/venues`, { headers });
    const health = () => timedFetch(`${app.url}/api/health`);
    expect((await listVenues()).status).toBe(200);

    let stopped = false;
    let stopping: Promise<void> | undefined;
    const createdIds: string[] = [];
    try {
      // Orders in flight while the server shuts down: each one either committed (201) or is refused as
      // unavailable (503); none fails as an internal error.
      const during = await burst(
        1_000,
        IN_FLIGHT,
        async () => {
          const answer = await postOrder();
          if (answer.status === 201 && createdIds.push((JSON.parse(answer.text) as { id: string }).id) >= ORDERS_BEFORE_STOP) {
            stopping ??= cluster!.stop().then(() => {
              stopped = true;
            });
          }
          return answer;
        },
        () => stopped,
      );
      expect(stopping, "the stop began mid-burst").toBeDefined();
      await stopping;
      during.filter((a) => a.status !== 201).forEach(expectUnavailable);

      // While it is down: health says so, and reads and writes are refused promptly, also concurrently.
      for (let round = 0; round < 3; round++) {
        const probe = await health();
        expect(probe.status).toBe(503);
        expect(probe.ms).toBeLessThan(ANSWER_WITHIN_MS);
        expect(JSON.parse(probe.text)).toMatchObject({ status: "degraded", database: { status: "unavailable" } });
        const answers = await Promise.all([listVenues(), postOrder(), listVenues(), timedFetch(`${app.url}/v1/orders`, { headers })]);
        answers.forEach(expectUnavailable);
      }
      expect(app.running(), "the app survived the outage").toBe(true);
    } finally {
      await cluster!.start();
    }

    // Back up: the same process reconnects on its own.
    await expect.poll(async () => (await health()).status, { timeout: RECOVERY_TIMEOUT_MS, interval: 250 }).toBe(200);
    // Soon every pooled connection works again: a batch of concurrent reads needs all of them, and one that
    // the outage left broken for good keeps failing here. (Right after the restart a connection may still
    // report the shutdown once, 503 like any outage error.)
    const readBatch = async () => {
      const reads = await Promise.all(Array.from({ length: 3 * IN_FLIGHT }, () => listVenues()));
      return reads.map((r) => (r.status === 200 && r.ms < ANSWER_WITHIN_MS ? "ok" : `${r.status} in ${Math.round(r.ms)} ms`));
    };
    await expect.poll(readBatch, { timeout: RECOVERY_TIMEOUT_MS, interval: 250 }).toEqual(Array(3 * IN_FLIGHT).fill("ok"));
    const after = await postOrder();
    expect(after.status, after.text).toBe(201);
    expect(app.running()).toBe(true);
    // Next.js logs an uncaught exception and keeps serving; the driver must fail queries, not throw from timers.
    expect(app.output()).not.toContain("uncaughtException");

    // Every order the app acknowledged during the shutdown is there.
    const stored = await db.select({ id: orders.id }).from(orders).where(eq(orders.organizationId, tenant.organization.id));
    expect(stored.map((o) => o.id)).toEqual(expect.arrayContaining(createdIds.map((id) => fromPublicId("order", id)!)));
  });

  it("answers dashboard pages and /login with a 503 retrying page, and the sign-in form says the service is unavailable", async () => {
    const tenant = await createTenant();
    const app = await apps.start({ databaseUrl: database.url() });
    // Auth.js builds its URLs from the Host header: the browser uses the name it rewrites 127.0.0.1 to.
    const origin = app.url.replace("127.0.0.1", "localhost");
    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/login`);
      await page.getByLabel("Email").fill(tenant.user.email);
      await page.getByLabel("Password").fill(TENANT_PASSWORD);
      await cluster!.stop();

      await page.getByRole("button", { name: "Sign in" }).click();
      await expect.poll(() => page.getByTestId("form-error").textContent(), { timeout: ANSWER_WITHIN_MS }).toContain("temporarily unavailable");
      expect(await page.getByTestId("form-error").textContent()).not.toContain("Invalid email or password");

      for (const path of ["/login", "/overview", "/orders?status=refunded", `/events/evt_${"0".repeat(32)}`]) {
        const answer = await timedFetch(`${app.url}${path}`);
        expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBe(503);
        expect(answer.ms).toBeLessThan(ANSWER_WITHIN_MS);
        expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(answer.text).toContain("Service temporarily unavailable");
        expect(answer.text).toContain("Retrying");
      }
      const health = await timedFetch(`${app.url}/api/health`);
      expect(health.status).toBe(503);
      expect(Number(health.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await browser.close();
      await cluster!.start();
    }
    // Back up: the sign-in page is served again.
    await expect.poll(async () => (await timedFetch(`${app.url}/login`)).status, { timeout: RECOVERY_TIMEOUT_MS, interval: 250 }).toBe(200);
  });
});
