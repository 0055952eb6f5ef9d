/**
 * Tenant isolation: organization B's credentials never reach organization A's data, whatever the
 * endpoint, method or filter; each key is held to its scopes; revoked keys and expired or tampered
 * user tokens are refused at once; and no secret reaches a log line or an error body.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiKey, revokeApiKey, revokeApiKeyById } from "@/lib/auth/api-keys";
import { SCOPES, type Scope } from "@/lib/auth/scopes";
import { issueUserToken } from "@/lib/auth/user-token";
import { toPublicId } from "@/lib/ids";
import { eventBody, ticketBody, venueBody } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { TENANT_PASSWORD } from "../support/fixtures";
import { callApi, credentialsSignIn, expectApiError, expectErrorContract, type HttpResult } from "../support/http";
import { useReceivers } from "../support/receiver";
import { useTestServer } from "../support/server";
import { seedTenantWorld, snapshotTables, type TenantWorld } from "../support/tenant-world";

const ZERO = "0".repeat(32);

/** Everything that names A or A's data in a response. */
function identifiersOf(w: TenantWorld): string[] {
  return [
    w.venueId,
    w.eventId,
    w.ticketId,
    w.orderId,
    w.orderUuid,
    w.membershipId,
    w.integrationId,
    w.deliveryId,
    w.customerEmail,
    w.customerName,
    w.tenant.organization.id,
    toPublicId("organization", w.tenant.organization.id),
    `Venue ${w.label}`,
    `Event ${w.label}`,
    `Ticket ${w.label}`,
  ];
}

describe("tenant isolation, scopes and credentials", () => {
  const database = useTestDatabase();
  const server = useTestServer();
  const receivers = useReceivers();
  let a: TenantWorld;
  let b: TenantWorld;

  beforeEach(async () => {
    const hook = await receivers(() => ({ status: 200 }));
    a = await seedTenantWorld(server.url(), hook.url, "alpha");
    b = await seedTenantWorld(server.url(), hook.url, "bravo");
  });

  const call = (credential: string, method: string, path: string, json?: unknown) =>
    callApi(server.url(), credential, method, path, { json });

  /** What A sees of its own data through every read endpoint, to compare before and after. */
  async function viewOf(w: TenantWorld): Promise<Record<string, string>> {
    const reads: [string, string][] = [
      [w.tenant.apiKey, `/v1/venues/${w.venueId}`],
      [w.tenant.apiKey, `/v1/events/${w.eventId}`],
      [w.tenant.apiKey, `/v1/events/${w.eventId}/tickets`],
      [w.tenant.apiKey, `/v1/orders/${w.orderId}`],
      [w.tenant.apiKey, "/v1/memberships"],
      [w.tenant.userToken, `/webhooks/deliveries/${w.deliveryId}`],
      [w.tenant.userToken, `/webhooks/deliveries/${w.deliveryId}/attempts`],
    ];
    const view: Record<string, string> = {};
    for (const [credential, path] of reads) {
      const result = await call(credential, "GET", path);
      expect(result.status, `${path} → ${result.text}`).toBe(200);
      view[path] = result.text;
    }
    return view;
  }

  it("B gets 404 not_found for every id of A on every method, and nothing of A changes", async () => {
    const before = await snapshotTables();
    const viewBefore = await viewOf(a);
    const key = b.tenant.apiKey;
    const token = b.tenant.userToken;
    const matrix: [credential: string, method: string, path: string, body?: unknown][] = [
      [key, "GET", `/v1/venues/${a.venueId}`],
      [key, "PATCH", `/v1/venues/${a.venueId}`, { name: "Taken over" }],
      [key, "DELETE", `/v1/venues/${a.venueId}`],
      [key, "GET", `/v1/events/${a.eventId}`],
      [key, "PATCH", `/v1/events/${a.eventId}`, { name: "Taken over", status: "cancelled" }],
      [key, "DELETE", `/v1/events/${a.eventId}`],
      [key, "GET", `/v1/events/${a.eventId}/tickets`],
      [key, "POST", `/v1/events/${a.eventId}/tickets`, ticketBody()],
      [key, "PATCH", `/v1/events/${a.eventId}/tickets/${a.ticketId}`, { name: "Taken over", price: 1 }],
      [key, "DELETE", `/v1/events/${a.eventId}/tickets/${a.ticketId}`],
      // A's ticket type under B's own event.
      [key, "PATCH", `/v1/events/${b.eventId}/tickets/${a.ticketId}`, { name: "Taken over" }],
      [key, "DELETE", `/v1/events/${b.eventId}/tickets/${a.ticketId}`],
      [key, "GET", `/v1/orders/${a.orderId}`],
      [key, "POST", `/v1/orders/${a.orderId}/refund`, { reason: "not yours" }],
      [token, "GET", `/webhooks/deliveries/${a.deliveryId}`],
      [token, "GET", `/webhooks/deliveries/${a.deliveryId}/attempts`],
      [token, "POST", `/webhooks/deliveries/${a.deliveryId}/redeliver`],
    ];
    for (const [credential, method, path, body] of matrix) {
      expectApiError(await call(credential, method, path, body), 404, "not_found", `B: ${method} ${path}`);
    }
    expect(await viewOf(a)).toEqual(viewBefore);
    expect(await snapshotTables()).toEqual(before);
  });

  it("B's bodies naming A's venue, event or ticket type are refused as unknown references (400), nothing changes", async () => {
    const before = await snapshotTables();
    const key = b.tenant.apiKey;
    const cases: [method: string, path: string, body: unknown, field: string][] = [
      ["POST", "/v1/events", eventBody(a.venueId), "venue_id"],
      ["PATCH", `/v1/events/${b.eventId}`, { venue_id: a.venueId }, "venue_id"],
      [
        "POST",
        "/v1/orders",
        { event_id: a.eventId, customer: { email: "b@example.test", name: "B" }, items: [{ ticket_id: a.ticketId, quantity: 1 }] },
        "event_id",
      ],
      [
        "POST",
        "/v1/orders",
        { event_id: b.eventId, customer: { email: "b@example.test", name: "B" }, items: [{ ticket_id: a.ticketId, quantity: 1 }] },
        "items.0.ticket_id",
      ],
    ];
    for (const [method, path, body, field] of cases) {
      const error = expectApiError(await call(key, method, path, body), 400, "validation_failed", `B: ${method} ${path}`);
      expect(error.details?.map((d) => d.path)).toEqual([field]);
    }
    expect(await snapshotTables()).toEqual(before);
  });

  it("no list or search called by B contains anything of A, filtered by A's ids, e-mail or order number included", async () => {
    const key = b.tenant.apiKey;
    const token = b.tenant.userToken;
    const lists: [credential: string, path: string, ownTotal?: (body: never) => number][] = [
      [key, "/v1/venues", (body: { data: unknown[] }) => body.data.length],
      [key, "/v1/events", (body: { meta: { total: number } }) => body.meta.total],
      [key, "/v1/events?status=published"],
      [key, `/v1/events?venue_id=${a.venueId}`, (body: { meta: { total: number } }) => body.meta.total + 1],
      [key, `/v1/events/${b.eventId}/tickets`, (body: { data: unknown[] }) => body.data.length],
      [key, "/v1/orders", (body: { meta: { total: number } }) => body.meta.total],
      [key, "/v1/orders?status=completed&per_page=100"],
      [key, `/v1/orders?event_id=${a.eventId}`, (body: { meta: { total: number } }) => body.meta.total + 1],
      [key, "/v1/memberships", (body: { meta: { total: number } }) => body.meta.total],
      [key, "/analytics_search/api/transactions?size=1000", (body: { data: { total_count: number } }) => body.data.total_count],
      [key, `/analytics_search/api/transactions?q=${encodeURIComponent(a.customerEmail)}`, (body: { data: { total_count: number } }) => body.data.total_count + 1],
      [key, `/analytics_search/api/transactions?q=${encodeURIComponent(a.customerName)}`, (body: { data: { total_count: number } }) => body.data.total_count + 1],
      [key, `/analytics_search/api/transactions?q=${a.orderNumber}`],
      [key, `/analytics_search/api/transactions?event_id=${a.eventId}`, (body: { data: { total_count: number } }) => body.data.total_count + 1],
      [key, "/analytics_search/api/transactions?sort=customer_name&order=asc&is_refunded=false"],
      [token, "/webhooks/deliveries", (body: { meta: { total: number } }) => body.meta.total],
      [token, `/webhooks/deliveries?integration_id=${a.integrationId}`, (body: { meta: { total: number } }) => body.meta.total + 1],
      [token, `/webhooks/deliveries/${b.deliveryId}/attempts`],
    ];
    const foreign = identifiersOf(a);
    for (const [credential, path, ownTotal] of lists) {
      const result = await call(credential, "GET", path);
      expectErrorContract(result, `B: GET ${path}`);
      // A filter naming A's data may be refused; it may never show it.
      expect([200, 404], `B: GET ${path} → ${result.text}`).toContain(result.status);
      for (const id of foreign) expect(result.text, `B: GET ${path} shows A's ${id}`).not.toContain(id);
      // B has exactly one of each; a filter on A's data matches none of B's (hence the +1 above).
      if (result.status === 200 && ownTotal) expect(ownTotal(JSON.parse(result.text) as never), `B: GET ${path} total`).toBe(1);
    }
    // The same lists do show A's data to A, and B's to B: the searches above could have found it.
    const fromA = await call(a.tenant.apiKey, "GET", `/analytics_search/api/transactions?q=${encodeURIComponent(a.customerEmail)}`);
    expect(JSON.parse(fromA.text).data.orders.map((o: { uuid: string }) => o.uuid)).toEqual([a.orderUuid]);
    for (const [credential, path, expected] of [
      [a.tenant.apiKey, "/v1/venues", a.venueId],
      [a.tenant.apiKey, "/v1/orders", a.orderId],
      [a.tenant.apiKey, "/v1/memberships", a.membershipId],
      [a.tenant.userToken, "/webhooks/deliveries", a.deliveryId],
      [b.tenant.apiKey, "/v1/events", b.eventId],
    ] as const) {
      expect((await call(credential, "GET", path)).text).toContain(expected);
    }
  });

  it("a key with one scope is refused (403 naming the scope) on every endpoint needing another, for every method", async () => {
    // The required scope of each endpoint (spec 5 and the issue): writes do not imply reads.
    const endpoints: { method: string; path: string; scope: Scope; body?: unknown }[] = [
      { method: "GET", path: "/analytics_search/api/transactions", scope: "orders:read" },
      { method: "GET", path: "/v1/orders", scope: "orders:read" },
      { method: "GET", path: `/v1/orders/ord_${ZERO}`, scope: "orders:read" },
      { method: "POST", path: "/v1/orders", scope: "orders:write", body: {} },
      { method: "POST", path: `/v1/orders/ord_${ZERO}/refund`, scope: "orders:write", body: {} },
      { method: "GET", path: "/v1/venues", scope: "venues:read" },
      { method: "GET", path: `/v1/venues/ven_${ZERO}`, scope: "venues:read" },
      { method: "POST", path: "/v1/venues", scope: "venues:write", body: {} },
      { method: "PATCH", path: `/v1/venues/ven_${ZERO}`, scope: "venues:write", body: {} },
      { method: "DELETE", path: `/v1/venues/ven_${ZERO}`, scope: "venues:write" },
      { method: "GET", path: "/v1/events", scope: "events:read" },
      { method: "GET", path: `/v1/events/evt_${ZERO}`, scope: "events:read" },
      { method: "POST", path: "/v1/events", scope: "events:write", body: {} },
      { method: "PATCH", path: `/v1/events/evt_${ZERO}`, scope: "events:write", body: {} },
      { method: "DELETE", path: `/v1/events/evt_${ZERO}`, scope: "events:write" },
      { method: "GET", path: `/v1/events/evt_${ZERO}/tickets`, scope: "events:read" },
      { method: "POST", path: `/v1/events/evt_${ZERO}/tickets`, scope: "events:write", body: {} },
      { method: "PATCH", path: `/v1/events/evt_${ZERO}/tickets/tkt_${ZERO}`, scope: "events:write", body: {} },
      { method: "DELETE", path: `/v1/events/evt_${ZERO}/tickets/tkt_${ZERO}`, scope: "events:write" },
      { method: "GET", path: "/v1/memberships", scope: "memberships:read" },
    ];
    const grants = (held: string, required: Scope) =>
      held === "*" || held === required || (held === "customers:read" && required === "memberships:read");
    const keys: { scopes: Scope[]; key: string }[] = [];
    for (const scopes of [...SCOPES.map((scope): Scope[] => [scope]), []]) {
      const name = `only ${scopes.join() || "nothing"}`;
      keys.push({ scopes, key: (await createApiKey({ organizationId: a.tenant.organization.id, name, scopes, rateLimitPerMinute: 10_000 })).key });
    }
    const before = await snapshotTables();
    for (const { scopes, key } of keys) {
      for (const endpoint of endpoints) {
        const label = `[${scopes.join()}] ${endpoint.method} ${endpoint.path}`;
        const result = await call(key, endpoint.method, endpoint.path, endpoint.body);
        if (scopes.some((scope) => grants(scope, endpoint.scope))) {
          // Past the scope check: an unknown id or an empty body, so nothing is created or changed.
          expectErrorContract(result, label);
          expect([200, 400, 404], `${label} → ${result.text}`).toContain(result.status);
        } else {
          const error = expectApiError(result, 403, "forbidden", label);
          expect(error.error).toContain(endpoint.scope);
        }
      }
      // Webhook delivery inspection takes a dashboard user token; no sk_ key opens it, whatever its scopes.
      for (const [method, path] of [
        ["GET", "/webhooks/deliveries"],
        ["GET", `/webhooks/deliveries/${a.deliveryId}`],
        ["GET", `/webhooks/deliveries/${a.deliveryId}/attempts`],
        ["POST", `/webhooks/deliveries/${a.deliveryId}/redeliver`],
      ]) {
        expectApiError(await call(key, method!, path!), 401, "unauthorized", `[${scopes.join()}] ${method} ${path}`);
      }
    }
    expect(await snapshotTables()).toEqual(before);
  });

  it("a revoked key is refused on the very next request, and only its own organization can revoke it", async () => {
    const key = a.tenant.apiKey;
    expect((await call(key, "GET", "/v1/venues")).status).toBe(200);
    expect(await revokeApiKey(b.tenant.organization.id, a.tenant.apiKeyId)).toBeNull();
    expect((await call(key, "GET", "/v1/venues")).status).toBe(200);

    expect(await revokeApiKey(a.tenant.organization.id, a.tenant.apiKeyId)).not.toBeNull();
    for (const [method, path] of [
      ["GET", "/v1/venues"],
      ["GET", `/v1/orders/${a.orderId}`],
      ["GET", "/analytics_search/api/transactions"],
      ["POST", `/v1/orders/${a.orderId}/refund`],
      ["DELETE", `/v1/venues/${a.venueId}`],
    ]) {
      expectApiError(await call(key, method!, path!), 401, "unauthorized", `revoked: ${method} ${path}`);
    }
    expect((await call(b.tenant.apiKey, "GET", "/v1/venues")).status).toBe(200);
  });

  it("the tenant revoke needs an organization: without one it revokes nothing; only the operator's revokes by id alone", async () => {
    const key = a.tenant.apiKey;
    // @ts-expect-error revokeApiKey takes an organization id; revoking by id alone is revokeApiKeyById (admin CLI).
    expect(await revokeApiKey(null, a.tenant.apiKeyId)).toBeNull();
    expect((await call(key, "GET", "/v1/venues")).status).toBe(200);

    expect(await revokeApiKeyById(a.tenant.apiKeyId)).not.toBeNull();
    expectApiError(await call(key, "GET", "/v1/venues"), 401, "unauthorized", "revoked by the operator");
  });

  it("expired, tampered, unsigned and foreign-organization user tokens are refused with 401", async () => {
    const paths = ["/webhooks/deliveries", `/webhooks/deliveries/${b.deliveryId}`, `/webhooks/deliveries/${b.deliveryId}/attempts`];
    for (const path of paths) expect((await call(b.tenant.userToken, "GET", path)).status).toBe(200);

    const [header, payload, signature] = b.tenant.userToken.split(".") as [string, string, string];
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as { sub: string; org: string; iat: number; exp: number };
    const flip = (text: string) => text.slice(0, -1) + (text.endsWith("A") ? "B" : "A");
    const subjectB = { userId: b.tenant.user.id, organizationId: b.tenant.organization.id, sessionVersion: 0 };
    const refused: Record<string, string> = {
      // Signed with the real secret, but its exp passed an hour ago.
      expired: await issueUserToken(subjectB, 60, Date.now() - 3_600_000),
      "signature changed": `${header}.${payload}.${flip(signature)}`,
      "claims moved to A's organization": `${header}.${encode({ ...claims, org: a.tenant.organization.id })}.${signature}`,
      "exp extended": `${header}.${encode({ ...claims, exp: claims.exp + 86_400 })}.${signature}`,
      "alg none": `${encode({ alg: "none", typ: "JWT" })}.${payload}.`,
      "alg none, no signature part": `${encode({ alg: "none", typ: "JWT" })}.${payload}`,
      // Validly signed (as if the secret leaked), but B's user is no member of A's organization.
      "B's user claiming A's organization": await issueUserToken({ ...subjectB, organizationId: a.tenant.organization.id }),
    };
    for (const [what, token] of Object.entries(refused)) {
      for (const path of paths) expectApiError(await call(token, "GET", path), 401, "unauthorized", `${what}: GET ${path}`);
      expectApiError(await call(token, "POST", `/webhooks/deliveries/${b.deliveryId}/redeliver`), 401, "unauthorized", `${what}: redeliver`);
    }
  });

  describe("with the app's log output captured", () => {
    let captured: string[] = [];
    let restore: (() => void) | undefined;

    beforeEach(() => {
      captured = [];
      // The app logger writes JSON lines straight to process.stdout / process.stderr (lib/log.ts); the server runs in this process.
      const spies = [process.stdout, process.stderr].map((stream) =>
        vi.spyOn(stream, "write").mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
          captured.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
          const done = rest.find((arg): arg is () => void => typeof arg === "function");
          done?.();
          return true;
        }) as typeof process.stdout.write),
      );
      restore = () => spies.forEach((spy) => spy.mockRestore());
    });

    afterEach(async () => {
      restore?.();
      await database.handle().exec(`
        drop trigger if exists zz_fail_venues on venues;
        drop trigger if exists zz_fail_deliveries on webhook_deliveries;
        drop trigger if exists zz_fail_login on login_attempts;
        drop function if exists zz_fail();`);
    });

    async function signIn(email: string, password: string): Promise<HttpResult> {
      const response = await credentialsSignIn(server.url(), email, password);
      const text = await response.text();
      return {
        status: response.status,
        header: (name) => response.headers.get(name),
        text: `${text}\n${response.headers.get("location") ?? ""}\n${response.headers.getSetCookie().join("\n")}`,
      };
    }

    it("never writes the API key, the password or the user token to the log or into any response, failures included", async () => {
      const secrets = {
        "API key": a.tenant.apiKey,
        "API key secret part": a.tenant.apiKey.slice(10),
        password: TENANT_PASSWORD,
        "user token": a.tenant.userToken,
        "user token signature": a.tenant.userToken.split(".")[2]!,
      };
      const responses: HttpResult[] = [];
      const record = (result: HttpResult) => {
        responses.push(result);
        return result;
      };
      const key = a.tenant.apiKey;
      const token = a.tenant.userToken;
      const email = `admin-${a.tenant.organization.id}@example.test`;

      // Secrets where they do not belong: in query values and body fields, on the wrong endpoint family.
      record(await call(key, "GET", `/analytics_search/api/transactions?size=${encodeURIComponent(key)}&date_from=${encodeURIComponent(TENANT_PASSWORD)}`));
      record(await call(key, "POST", "/v1/venues", { ...venueBody(), capacity: key, address: token }));
      record(await call(key, "GET", "/webhooks/deliveries"));
      record(await call(token, "GET", "/v1/venues"));
      record(await call(b.tenant.apiKey, "GET", `/v1/orders/${a.orderId}`));

      // Failures that are logged: a database error under each kind of credential, and a broken sign-in.
      await database.handle().exec(`
        create function zz_fail() returns trigger language plpgsql as $$ begin raise exception 'forced failure for the log test'; end $$;
        create trigger zz_fail_venues before insert on venues for each statement execute function zz_fail();
        create trigger zz_fail_deliveries before insert on webhook_deliveries for each statement execute function zz_fail();
        create trigger zz_fail_login before insert or delete on login_attempts for each statement execute function zz_fail();`);
      const venueFailure = record(await call(key, "POST", "/v1/venues", venueBody()));
      const redeliveryFailure = record(await call(token, "POST", `/webhooks/deliveries/${a.deliveryId}/redeliver`));
      for (const failure of [venueFailure, redeliveryFailure]) {
        expect(expectApiError(failure, 500, "internal").error).toBe("Internal server error");
      }
      record(await signIn(email, TENANT_PASSWORD));
      record(await signIn(email, `${TENANT_PASSWORD}!`));

      restore?.();
      const log = captured.join("");
      // The capture holds what was logged: both request failures under their trace ids, and the sign-in errors.
      for (const failure of [venueFailure, redeliveryFailure]) {
        expect(log).toMatch(new RegExp(`"message":"request failed","trace_id":"${failure.header("x-trace-id")}"`));
      }
      expect(log).toContain('"message":"auth error"');
      for (const [what, secret] of Object.entries(secrets)) {
        expect(log.includes(secret), `the log contains the ${what}`).toBe(false);
        for (const response of responses) {
          expect(response.text.includes(secret), `a response (${response.status}) contains the ${what}: ${response.text.slice(0, 200)}`).toBe(false);
        }
      }
    });
  });
});
