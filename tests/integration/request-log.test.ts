import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { requestLog } from "@/db/schema";
import { inProcessDriver } from "@/inngest/embedded";
import { createApiKey } from "@/lib/auth/api-keys";
import { toPublicId } from "@/lib/ids";
import { flushRequestLog, recordRequest } from "@/lib/request-log/buffer";
import { MAX_LOGGED_BODY_BYTES } from "@/lib/request-log/redact";
import { listRequestLog } from "@/lib/request-log/entries";
import { listRequestLogQuerySchema, type RequestLogEntryJson } from "@/lib/request-log/schemas";
import { expectError, expectStatus, venueBody, type Api } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { insertCatalog, oneTicketOrderBody } from "../support/order-fixtures";
import { useTestServer } from "../support/server";

type Page = { data: RequestLogEntryJson[]; meta: { page: number; per_page: number; total: number } };

describe("request log", () => {
  const database = useTestDatabase();
  const server = useTestServer();
  let api: Api;
  let tenant: Awaited<ReturnType<typeof createTenant>>;

  beforeEach(async () => {
    tenant = await createTenant();
    api = apiClient(server.url(), tenant.apiKey);
  });
  // Written before the next test empties the tables, so no batch outlives its organization.
  afterEach(() => flushRequestLog());

  /** Makes a request and returns its trace id once its record is written. */
  async function traced(path: string, init: Parameters<Api>[1] = {}) {
    const response = await api(path, init);
    await response.text();
    await flushRequestLog();
    return { traceId: response.headers.get("x-trace-id")!, status: response.status, location: response.headers.get("location") };
  }
  const entry = async (traceId: string) => expectStatus<RequestLogEntryJson>(await api(`/v1/request-log/${traceId}`), 200);
  const list = async (query = "") => expectStatus<Page>(await api(`/v1/request-log${query}`), 200);

  it("writes each request within the flush window, without being asked, with every field", async () => {
    const response = await api("/v1/venues?per_page=5", { headers: { "User-Agent": "log-test/1.0", "X-Forwarded-For": "203.0.113.9, 10.0.0.1" } });
    expect(response.status).toBe(200);
    const traceId = response.headers.get("x-trace-id")!;
    const rows = () => db.select().from(requestLog).where(sql`${requestLog.traceId} = ${traceId}`);
    // Not written by the request itself: the batch follows within a second.
    await expect.poll(async () => (await rows()).length, { timeout: 5_000, interval: 100 }).toBe(1);
    expect(await entry(traceId)).toEqual({
      trace_id: traceId,
      method: "GET",
      path: "/v1/venues",
      query: "per_page=5",
      status: 200,
      duration_ms: expect.any(Number),
      key_id: toPublicId("apiKey", tenant.apiKeyId),
      client_ip: "203.0.113.9",
      user_agent: "log-test/1.0",
      request_body_truncated: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("records the created resource of a 201 and the order of order writes", async () => {
    const venue = await traced("/v1/venues", { method: "POST", body: venueBody() });
    expect(venue.status).toBe(201);
    expect(await entry(venue.traceId)).toMatchObject({ method: "POST", status: 201, created_resource: venue.location });
    expect(JSON.parse((await entry(venue.traceId)).request_body!)).toEqual(venueBody());

    const catalog = await insertCatalog(tenant.organization.id);
    const order = await traced("/v1/orders", { method: "POST", body: oneTicketOrderBody(catalog) });
    const orderId = order.location!.split("/").pop();
    expect(await entry(order.traceId)).toMatchObject({ status: 201, created_resource: order.location, order_id: orderId });
    const refund = await traced(`/v1/orders/${orderId}/refund`, { method: "POST", body: { reason: "changed plans" } });
    expect(await entry(refund.traceId)).toMatchObject({ status: 200, order_id: orderId });
    expect((await entry(refund.traceId)).created_resource).toBeUndefined();
  });

  it("redacts secret-like fields at any depth and cuts long bodies at 10 KB with a marker", async () => {
    const body = {
      name: "Hall",
      password: "hunter2",
      nested: { client_secret: "s3cret", apiKey: "sk_live", card: { number: "4242424242424242" }, kept: "visible" },
      list: [{ access_token: "tok-value-1" }, { Authorization: "Bearer x" }],
    };
    const refused = await traced("/v1/venues", { method: "POST", body });
    expect(refused.status).toBe(400);
    const logged = await entry(refused.traceId);
    expect(JSON.parse(logged.request_body!)).toEqual({
      name: "Hall",
      password: "[redacted]",
      nested: { client_secret: "[redacted]", apiKey: "[redacted]", card: "[redacted]", kept: "visible" },
      list: [{ access_token: "[redacted]" }, { Authorization: "[redacted]" }],
    });
    for (const secret of ["hunter2", "s3cret", "sk_live", "4242424242424242", "tok-value-1", "Bearer x"]) {
      expect(logged.request_body).not.toContain(secret);
    }

    const long = await traced("/v1/venues", { method: "POST", body: venueBody({ name: "é".repeat(20_000) }) });
    const cut = await entry(long.traceId);
    expect(cut.request_body_truncated).toBe(true);
    expect(cut.request_body).toMatch(/…\[truncated: \d+ bytes in all\]$/);
    const kept = cut.request_body!.replace(/…\[truncated: \d+ bytes in all\]$/, "");
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(MAX_LOGGED_BODY_BYTES);
    expect(Buffer.byteLength(kept)).toBeGreaterThan(MAX_LOGGED_BODY_BYTES - 2);
    // Reads carry no body.
    const read = await traced("/v1/venues");
    expect((await entry(read.traceId)).request_body).toBeUndefined();
  });

  it("logs refusals after authentication (403, 404, 429) but not requests without a valid key", async () => {
    const limited = await createTenant({ scopes: ["orders:read"], rateLimitPerMinute: 1 });
    const limitedApi = apiClient(server.url(), limited.apiKey);
    const forbidden = await limitedApi("/v1/venues");
    expect(forbidden.status).toBe(403);
    const tooMany = await limitedApi("/v1/orders");
    expect(tooMany.status).toBe(429);
    const anonymous = await apiClient(server.url(), "sk_not_a_real_key_000000000000")("/v1/venues");
    expect(anonymous.status).toBe(401);
    const missing = await traced("/v1/venues/ven_00000000000000000000000000000000");
    expect(missing.status).toBe(404);
    await flushRequestLog();

    const rows = await db.select().from(requestLog);
    const statuses = rows.filter((row) => row.organizationId === limited.organization.id).map((row) => row.status).sort();
    expect(statuses).toEqual([403, 429]);
    expect(rows.map((row) => row.traceId)).not.toContain(anonymous.headers.get("x-trace-id"));
    expect((await entry(missing.traceId)).status).toBe(404);
  });

  it("filters by status class, key, path prefix, method and time, newest first with paging", async () => {
    const second = await createTenant();
    const secondApi = apiClient(server.url(), second.apiKey);
    const own = [
      await traced("/v1/venues"),
      await traced("/v1/venues", { method: "POST", body: venueBody() }),
      await traced("/v1/events/evt_00000000000000000000000000000000"),
      await traced("/v1/orders?per_page=1"),
    ];
    // The same key's other organization never shows up; a second key of this organization does.
    await (await secondApi("/v1/venues")).text();
    const { apiKey: otherKey, apiKeyId: otherKeyId } = await createOtherKey(tenant.organization.id);
    await (await apiClient(server.url(), otherKey)("/v1/orders")).text();
    await flushRequestLog();

    // Read through the API's domain function: reading over HTTP would log requests of its own.
    const list = (query = "") =>
      listRequestLog(tenant.organization.id, listRequestLogQuerySchema.parse(Object.fromEntries(new URLSearchParams(query))));
    const all = await list();
    expect(all.meta.total).toBe(5);
    expect(all.data.slice(1).map((e) => e.trace_id)).toEqual(own.map((r) => r.traceId).reverse());
    expect((await list("?status=4xx")).data.map((e) => e.trace_id)).toEqual([own[2]!.traceId]);
    expect((await list("?status=2xx")).meta.total).toBe(4);
    expect((await list(`?key_id=${toPublicId("apiKey", otherKeyId)}`)).data.map((e) => e.path)).toEqual(["/v1/orders"]);
    expect((await list("?path=/v1/venues")).data.map((e) => e.trace_id)).toEqual([own[1]!.traceId, own[0]!.traceId]);
    expect((await list("?path=/v1/ord")).meta.total).toBe(2);
    // `_` and `%` are not wildcards in a path prefix.
    expect((await list("?path=/v1/_enues")).meta.total).toBe(0);
    expect((await list("?method=post")).data.map((e) => e.trace_id)).toEqual([own[1]!.traceId]);
    expect((await list("?per_page=2&page=2")).data.map((e) => e.trace_id)).toEqual([own[2]!.traceId, own[1]!.traceId]);

    const past = new Date(Date.now() - 86_400_000).toISOString();
    await db.update(requestLog).set({ createdAt: new Date(past) }).where(sql`${requestLog.traceId} = ${own[0]!.traceId}`);
    const cutoff = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    expect((await list(`?created_to=${cutoff}`)).data.map((e) => e.trace_id)).toEqual([own[0]!.traceId]);
    expect((await list(`?created_from=${cutoff}`)).meta.total).toBe(4);

    await expectError(await api("/v1/request-log?status=6xx"), 400, "validation_failed", ["status"]);
    await expectError(await api("/v1/request-log?key_id=nope"), 400, "validation_failed", ["key_id"]);
    await expectError(await api("/v1/request-log?path=v1"), 400, "validation_failed", ["path"]);
  });

  it("never shows another organization's requests, and needs logs:read", async () => {
    const other = await createTenant();
    const otherApi = apiClient(server.url(), other.apiKey);
    const theirs = await otherApi("/v1/venues");
    await theirs.text();
    const mine = await traced("/v1/venues");

    await expectError(await api(`/v1/request-log/${theirs.headers.get("x-trace-id")}`), 404, "not_found");
    expect((await list()).data.map((e) => e.trace_id)).not.toContain(theirs.headers.get("x-trace-id"));
    await expectError(await api("/v1/request-log/not-a-trace-id"), 404, "not_found");
    await expectError(await api("/v1/request-log/0123456789abcdef01234567"), 404, "not_found");

    const readOnly = await createTenant({ scopes: ["orders:read", "venues:read"] });
    const readOnlyApi = apiClient(server.url(), readOnly.apiKey);
    const refused = await expectError(await readOnlyApi(`/v1/request-log/${mine.traceId}`), 403, "forbidden");
    expect(refused.error).toContain("logs:read");
    await expectError(await readOnlyApi("/v1/request-log"), 403, "forbidden");
    const scoped = await createTenant({ scopes: ["logs:read"] });
    expect((await expectStatus<Page>(await apiClient(server.url(), scoped.apiKey)("/v1/request-log"), 200)).meta.total).toBe(0);
  });

  it("a failing log write never fails the request; later batches are written again", async () => {
    await database.handle().exec(`alter table request_log rename to request_log_away`);
    let lost: { traceId: string; status: number };
    try {
      lost = await traced("/v1/venues", { method: "POST", body: venueBody() });
    } finally {
      await database.handle().exec(`alter table request_log_away rename to request_log`);
    }
    expect(lost.status).toBe(201);
    await expectError(await api(`/v1/request-log/${lost.traceId}`), 404, "not_found");
    const next = await traced("/v1/venues");
    expect((await entry(next.traceId)).status).toBe(200);
  });

  it("a batch holding requests of an organization deleted meanwhile still writes everyone else's", async () => {
    const gone = await createTenant();
    const record = (organizationId: string, apiKeyId: string, traceId: string) => ({
      organizationId,
      apiKeyId,
      traceId,
      method: "GET",
      path: "/v1/venues",
      query: "",
      status: 200,
      durationMs: 1,
      clientIp: null,
      userAgent: null,
      createdResource: null,
      orderId: null,
      at: new Date(),
    });
    recordRequest(record(gone.organization.id, gone.apiKeyId, "0".repeat(24)));
    recordRequest(record(tenant.organization.id, tenant.apiKeyId, "1".repeat(24)));
    await db.execute(sql`delete from organizations where id = ${gone.organization.id}`);
    await flushRequestLog();
    expect((await entry("1".repeat(24))).path).toBe("/v1/venues");
    expect((await db.select().from(requestLog).where(sql`${requestLog.traceId} = ${"0".repeat(24)}`)).length).toBe(0);
  });

  it("the daily cron prunes entries older than the retention (30 days) and nothing newer", async () => {
    const row = (traceId: string, daysAgo: number) => ({
      organizationId: tenant.organization.id,
      apiKeyId: tenant.apiKeyId,
      traceId,
      method: "GET",
      path: "/v1/venues",
      query: "",
      status: 200,
      durationMs: 1,
      createdAt: new Date(Date.now() - daysAgo * 86_400_000),
    });
    await db.insert(requestLog).values([row("a".repeat(24), 1), row("b".repeat(24), 29.9), row("c".repeat(24), 30.1), row("d".repeat(24), 400)]);
    const remaining = async () => (await db.select({ t: requestLog.traceId }).from(requestLog)).map((r) => r.t).sort();
    inProcessDriver().fireCron();
    await expect.poll(remaining, { timeout: 10_000 }).toEqual(["a".repeat(24), "b".repeat(24)]);
  });
});

async function createOtherKey(organizationId: string) {
  const { key, record } = await createApiKey({ organizationId, name: "second key", scopes: ["*"], rateLimitPerMinute: 10_000 });
  return { apiKey: key, apiKeyId: record.id };
}
