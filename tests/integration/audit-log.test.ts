import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, rowsOf } from "@/db/client";
import { apiKeys, auditLog } from "@/db/schema";
import { inProcessDriver } from "@/inngest/embedded";
import type { AuditLogJson } from "@/lib/audit/audit-log";
import { withAuditContext } from "@/lib/audit/context";
import { pruneAuditLog } from "@/lib/audit/retention";
import { createApiKey } from "@/lib/auth/api-keys";
import { acceptInvitation, changeOwnPassword, removeMember } from "@/lib/auth/members";
import { createUser } from "@/lib/auth/users";
import { settleForm, type FormActionSpec } from "@/lib/dashboard/form-submission";
import type { FormState } from "@/lib/dashboard/forms";
import { useTestDatabase } from "../support/database";
import { createTenant, TENANT_PASSWORD } from "../support/fixtures";
import { callApi, expectApiError, readResult, sessionCookie } from "../support/http";
import { useReceivers } from "../support/receiver";
import { useTestServer } from "../support/server";
import { seedTenantWorld } from "../support/tenant-world";

/** The dashboard's actions, imported once the server runs (Next.js's request storage must exist before they load). */
async function dashboardActions() {
  const [keys, members] = await Promise.all([import("@/app/(dashboard)/api-keys/actions"), import("@/app/(dashboard)/members/actions")]);
  return { ...keys, ...members };
}

const ORIGIN = { "X-Forwarded-For": "203.0.113.9", "User-Agent": "audit-test/1.0" };

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) data.append(name, one);
  return data;
}

type Tenant = Awaited<ReturnType<typeof createTenant>>;

function sessionOf(tenant: Tenant) {
  return { organizationId: tenant.organization.id, userId: tenant.user.id, email: tenant.user.email, sessionVersion: 0, role: tenant.user.role };
}

/** Runs a dashboard form action's spec as formAction does, from the test's origin; fails on a refusal. */
async function submit<D, S extends FormState>(action: { spec: FormActionSpec<D, S> }, tenant: Tenant, fields: Record<string, string | string[]>) {
  const outcome = await settleForm(action.spec, sessionOf(tenant), form(fields), { ipAddress: "198.51.100.4", userAgent: "dashboard-browser/2.0" });
  expect(outcome.ok, JSON.stringify(outcome.state)).toBe(true);
  return outcome.state;
}

/** The database's refusal, as drizzle reports it (its own message, the driver's as the cause). */
async function databaseRefusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    const failed = error as Error & { cause?: Error };
    return `${failed.message} ${failed.cause?.message ?? ""}`;
  }
  throw new Error("expected the database to refuse");
}

async function auditReader(tenant: Tenant) {
  const { key } = await createApiKey({ organizationId: tenant.organization.id, name: "auditor", scopes: ["audit:read"], rateLimitPerMinute: 10_000 });
  return key;
}

describe("audit log", () => {
  useTestDatabase();
  const server = useTestServer();
  const receiver = useReceivers();

  async function entries(key: string, query = ""): Promise<{ data: AuditLogJson[]; meta: { page: number; per_page: number; total: number } }> {
    const result = await callApi(server.url(), key, "GET", `/v1/audit-log${query}`);
    expect(result.status, result.text).toBe(200);
    return JSON.parse(result.text);
  }

  it("records every API and /webhooks change with its actor, IP address and user agent, in the change's transaction", async () => {
    const hook = await receiver(() => ({ status: 200 }));
    const world = await seedTenantWorld(server.url(), hook.url, "A");
    const { tenant } = world;
    const asUser = (method: string, path: string, json?: unknown) => callApi(server.url(), tenant.userToken, method, path, { json, headers: ORIGIN });
    const asKey = (method: string, path: string, json?: unknown) => callApi(server.url(), tenant.apiKey, method, path, { json, headers: ORIGIN });

    const created = await asUser("POST", "/webhooks/integrations", { url: `${hook.url}?token=not-for-the-log`, events: ["OrderCompleted"] });
    expect(created.status, created.text).toBe(201);
    const integrationId = (JSON.parse(created.text) as { id: string; signing_secret: string }).id;
    const secret = (JSON.parse(created.text) as { signing_secret: string }).signing_secret;
    expect((await asUser("PATCH", `/webhooks/integrations/${integrationId}`, { description: "Billing" })).status).toBe(200);
    expect((await asUser("PATCH", `/webhooks/integrations/${integrationId}`, { enabled: false })).status).toBe(200);
    expect((await asUser("PATCH", `/webhooks/integrations/${integrationId}`, { enabled: true })).status).toBe(200);
    expect((await asUser("GET", `/webhooks/integrations/${integrationId}/secret`)).status).toBe(200);
    const rotated = await asUser("POST", `/webhooks/integrations/${integrationId}/rotate-secret`, { expire_previous_in: 3600 });
    expect(rotated.status, rotated.text).toBe(200);
    expect((await asUser("POST", `/webhooks/deliveries/${world.deliveryId}/redeliver`)).status).toBe(201);
    const recovered = await asUser("POST", `/webhooks/integrations/${world.integrationId}/recover`, { since: "2020-01-01T00:00:00Z" });
    expect(recovered.status, recovered.text).toBe(200);
    expect((await asUser("DELETE", `/webhooks/integrations/${integrationId}`)).status).toBe(204);
    expect((await asKey("POST", `/v1/orders/${world.orderId}/refund`, { reason: "Customer asked" })).status).toBe(200);
    expect((await asKey("PATCH", `/v1/events/${world.eventId}`, { status: "cancelled" })).status).toBe(200);
    expect((await asKey("DELETE", `/v1/events/${world.eventId}`)).status).toBe(204);
    // A refused change records nothing.
    expect((await asKey("POST", `/v1/orders/${world.orderId}/refund`, {})).status).toBe(409);

    const { data } = await entries(await auditReader(tenant), "?per_page=100");
    // The world's own setup (its first integration) ran outside any request: the system actor's.
    expect(data.filter((entry) => entry.action === "integration.created" && entry.actor.type === "system")).toHaveLength(1);
    const byAction = (action: string) => data.filter((entry) => entry.action === action && entry.actor.type !== "system");
    const userActor = { type: "user", id: tenant.user.id, label: tenant.user.email };
    for (const action of [
      "integration.created",
      "integration.updated",
      "integration.disabled",
      "integration.enabled",
      "integration.secret_revealed",
      "integration.secret_rotated",
      "delivery.redelivered",
      "integration.deliveries_recovered",
      "integration.deleted",
    ]) {
      const [entry, ...more] = byAction(action);
      expect(entry, action).toMatchObject({ actor: userActor, ip_address: "203.0.113.9", user_agent: "audit-test/1.0" });
      expect(more, action).toEqual([]);
    }
    // The URL without its query, which may carry a credential.
    expect(byAction("integration.created")[0]!.target).toEqual({ type: "integration", id: integrationId, label: new URL(hook.url).origin + new URL(hook.url).pathname });
    expect(byAction("integration.updated")[0]!.details).toEqual({ changed: ["description"] });
    expect(byAction("integration.secret_rotated")[0]!.details).toEqual({ expire_previous_in: 3600 });
    expect(byAction("delivery.redelivered")[0]!.target).toMatchObject({ type: "delivery", id: world.deliveryId });
    // Bulk recovery is one entry with its count (the one delivery there is succeeded: nothing to queue).
    expect(byAction("integration.deliveries_recovered")[0]!.details).toMatchObject({ queued: 0, since: "2020-01-01T00:00:00.000Z" });

    const keyActor = { type: "api_key", id: tenant.apiKeyId };
    const [refund, ...otherRefunds] = byAction("order.refunded");
    expect(otherRefunds).toEqual([]);
    expect(refund).toMatchObject({ actor: keyActor, target: { type: "order", id: world.orderId, label: `#${world.orderNumber}` }, ip_address: "203.0.113.9", user_agent: "audit-test/1.0" });
    expect(refund!.details).toMatchObject({ reason: "Customer asked" });
    expect(refund!.actor.label).toMatch(/^sk_.{7}… test key$/);
    expect(byAction("event.cancelled")[0]).toMatchObject({ actor: keyActor, target: { type: "event", id: world.eventId, label: "Event A" }, details: { refunded_orders: 0 } });
    expect(byAction("event.deleted")[0]).toMatchObject({ actor: keyActor, target: { type: "event", id: world.eventId } });

    // Never a secret: not the signing secrets, not the URL's query, not the API key.
    const stored = JSON.stringify(await db.select().from(auditLog));
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain((JSON.parse(rotated.text) as { signing_secret: string }).signing_secret);
    expect(stored).not.toContain("not-for-the-log");
    expect(stored).not.toContain(tenant.apiKey);
  });

  it("records the dashboard's key, member and account changes as the signed-in user, from the request", async () => {
    const { createApiKeyAction, revokeApiKeyAction, inviteMemberAction, setRoleAction, removeMemberAction } = await dashboardActions();
    const tenant = await createTenant();
    const created = (await submit(createApiKeyAction, tenant, { name: "CI deploys", scopes: ["orders:read"], rateLimitPerMinute: "60" })) as {
      created: { key: string };
    };
    const [key] = await db.select().from(apiKeys).where(eq(apiKeys.name, "CI deploys"));
    await submit(revokeApiKeyAction, tenant, { id: key!.id });
    const invited = (await submit(inviteMemberAction, tenant, { email: "new@example.test", role: "developer" })) as { invited: { path: string } };
    const developer = await withAuditContext({ actor: { type: "system", label: "test" }, ipAddress: "192.0.2.1", userAgent: "invitee" }, () =>
      acceptInvitation(invited.invited.path.split("/").at(-1)!, "their own password"),
    );
    await submit(setRoleAction, tenant, { id: developer.id, role: "viewer" });
    await submit(removeMemberAction, tenant, { id: developer.id });
    const viewer = await createUser({ organizationId: tenant.organization.id, email: "leaver@example.test", password: "a long password", role: "viewer" });
    const asViewer = { actor: { type: "user", id: viewer.id } as const, ipAddress: "192.0.2.2", userAgent: "viewer-browser" };
    await withAuditContext(asViewer, () =>
      changeOwnPassword({ userId: viewer.id, organizationId: tenant.organization.id, sessionVersion: 0 }, "a long password", "a new long password"),
    );
    await withAuditContext(asViewer, () => removeMember(tenant.organization.id, viewer.id, { userId: viewer.id, role: "viewer" }));

    const { data } = await entries(await auditReader(tenant), "?per_page=100");
    const one = (action: string) => {
      const found = data.filter((entry) => entry.action === action);
      expect(found, action).toHaveLength(1);
      return found[0]!;
    };
    const fromDashboard = { actor: { type: "user", id: tenant.user.id, label: tenant.user.email }, ip_address: "198.51.100.4", user_agent: "dashboard-browser/2.0" };
    expect(one("api_key.revoked")).toMatchObject({ ...fromDashboard, target: { type: "api_key", id: key!.id, label: "CI deploys" }, details: { prefix: key!.displayPrefix } });
    const keyCreated = data.find((entry) => entry.action === "api_key.created" && entry.target.label === "CI deploys")!;
    expect(keyCreated).toMatchObject({ ...fromDashboard, details: { scopes: ["orders:read"], prefix: key!.displayPrefix } });
    expect(one("member.invited")).toMatchObject({ ...fromDashboard, target: { type: "invitation", label: "new@example.test" }, details: { role: "developer" } });
    expect(one("invitation.accepted")).toMatchObject({
      actor: { type: "user", id: developer.id, label: "new@example.test" },
      target: { type: "user", id: developer.id },
      ip_address: "192.0.2.1",
      user_agent: "invitee",
    });
    expect(one("member.role_changed")).toMatchObject({ ...fromDashboard, target: { type: "user", id: developer.id, label: "new@example.test" }, details: { from: "developer", to: "viewer" } });
    expect(one("member.removed")).toMatchObject({ ...fromDashboard, target: { id: developer.id }, details: { role: "viewer" } });
    const viewerActor = { type: "user", id: viewer.id, label: "leaver@example.test" };
    expect(one("user.password_changed")).toMatchObject({ actor: viewerActor, target: { id: viewer.id }, ip_address: "192.0.2.2" });
    // Recorded before the user row went, so the entry still names who left.
    expect(one("member.left")).toMatchObject({ actor: viewerActor, target: { id: viewer.id } });
    const stored = JSON.stringify(await db.select().from(auditLog));
    expect(stored).not.toContain(created.created.key);
    expect(stored).not.toContain(invited.invited.path.split("/").at(-1));
    expect(stored).not.toContain("a new long password");
  });

  it("lets only the roles that read the audit log create a key that reads it", async () => {
    const { createApiKeyAction } = await dashboardActions();
    const tenant = await createTenant();
    const developer = await createUser({ organizationId: tenant.organization.id, email: "dev@example.test", password: "a long password", role: "developer" });
    const session = { organizationId: tenant.organization.id, userId: developer.id, email: developer.email, sessionVersion: 0, role: "developer" as const };
    for (const scope of ["audit:read", "*"]) {
      const outcome = await settleForm(createApiKeyAction.spec, session, form({ name: `dev ${scope}`, scopes: [scope, "orders:read"], rateLimitPerMinute: "60" }));
      expect(outcome.ok, scope).toBe(false);
      expect(outcome.state.fieldErrors?.scopes, scope).toMatch(/cannot create a key with audit:read or \*/);
    }
    expect(await db.select().from(apiKeys).where(eq(apiKeys.organizationId, tenant.organization.id))).toHaveLength(1);
    const allowed = await settleForm(createApiKeyAction.spec, session, form({ name: "dev orders", scopes: ["orders:read"], rateLimitPerMinute: "60" }));
    expect(allowed.ok).toBe(true);
    // The owner may.
    await submit(createApiKeyAction, tenant, { name: "owner auditor", scopes: ["audit:read"], rateLimitPerMinute: "60" });
  });

  it("records sign-ins and failed sign-ins; a failure with an unknown e-mail belongs to no organization", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const signIn = async (email: string, password: string, origin: Record<string, string> = ORIGIN) => {
      const csrf = await fetch(`${server.url()}/api/auth/csrf`);
      const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const response = await fetch(`${server.url()}/api/auth/callback/credentials`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, ...origin },
        body: new URLSearchParams({ csrfToken, email, password }).toString(),
      });
      await response.text();
    };
    await signIn(tenant.user.email, TENANT_PASSWORD);
    await signIn(tenant.user.email.toUpperCase(), "not the password");
    await signIn("nobody@example.test", "not the password");
    // Without a proxy's header, the address is the peer's, as the server saw it.
    await signIn(other.user.email, TENANT_PASSWORD, {});

    const { data } = await entries(await auditReader(tenant), "?per_page=100");
    const self = { type: "user", id: tenant.user.id, label: tenant.user.email };
    expect(data.filter((entry) => entry.action === "user.signed_in")).toMatchObject([{ actor: self, target: self, ip_address: "203.0.113.9", user_agent: "audit-test/1.0" }]);
    expect(data.filter((entry) => entry.action === "user.sign_in_failed")).toMatchObject([
      { actor: self, details: { reason: "invalid_credentials" }, ip_address: "203.0.113.9" },
    ]);
    const unknown = await db.select().from(auditLog).where(eq(auditLog.actorLabel, "nobody@example.test"));
    expect(unknown).toMatchObject([{ organizationId: null, actorId: null, action: "user.sign_in_failed" }]);
    const otherLog = await entries(await auditReader(other), "?per_page=100");
    expect(JSON.stringify(otherLog)).not.toContain("nobody@example.test");
    expect(otherLog.data.filter((entry) => entry.action === "user.signed_in")).toMatchObject([{ ip_address: "127.0.0.1" }]);
    // The password tried is never kept.
    expect(JSON.stringify(await db.select().from(auditLog))).not.toContain("not the password");
  });

  it("shows an organization only its own entries (API and Security page), and needs the audit:read scope", async () => {
    const { revokeApiKeyAction } = await dashboardActions();
    const a = await createTenant({ name: "Org A" });
    const b = await createTenant({ name: "Org B" });
    await submit(revokeApiKeyAction, a, { id: (await createApiKey({ organizationId: a.organization.id, name: "only-in-a", scopes: ["orders:read"] })).record.id });

    const bLog = await entries(await auditReader(b), "?per_page=100");
    expect(bLog.data.length).toBeGreaterThan(0);
    expect(JSON.stringify(bLog)).not.toContain("only-in-a");
    expect(JSON.stringify(bLog)).not.toContain(a.organization.id);
    // An actor filter naming A's user finds nothing for B.
    expect((await entries(await auditReader(b), `?actor=${a.user.id}`)).meta.total).toBe(0);

    // Scope: a `*` key reads it too; any other scope is refused with the API's error body.
    expect((await callApi(server.url(), a.apiKey, "GET", "/v1/audit-log")).status).toBe(200);
    const { key: ordersOnly } = await createApiKey({ organizationId: a.organization.id, name: "orders", scopes: ["orders:read", "events:read"] });
    const refused = expectApiError(await callApi(server.url(), ordersOnly, "GET", "/v1/audit-log"), 403, "forbidden");
    expect(refused.error).toContain("audit:read");
    // Dashboard user tokens are not API keys.
    expectApiError(await callApi(server.url(), a.userToken, "GET", "/v1/audit-log"), 401, "unauthorized");

    const cookie = await sessionCookie(server.url(), b.user.email, TENANT_PASSWORD);
    const page = await readResult(await fetch(`${server.url()}/security?per_page=100`, { headers: { Cookie: cookie } }));
    expect(page.status).toBe(200);
    expect(page.text).toContain("user.signed_in</code>");
    expect(page.text).not.toContain("only-in-a");
    const aCookie = await sessionCookie(server.url(), a.user.email, TENANT_PASSWORD);
    const aPage = await readResult(await fetch(`${server.url()}/security?action=api_key.revoked`, { headers: { Cookie: aCookie } }));
    expect(aPage.text).toContain("only-in-a");
    expect(aPage.text).not.toContain("user.signed_in</code>");
  });

  it("filters by actor, action and time, newest first, in pages; bad filters are a 400", async () => {
    const tenant = await createTenant();
    const organizationId = tenant.organization.id;
    const day = (iso: string) => new Date(iso);
    await db.insert(auditLog).values([
      ...Array.from({ length: 5 }, (_, i) => ({
        organizationId,
        actorType: "user" as const,
        actorId: tenant.user.id,
        actorLabel: tenant.user.email,
        action: "api_key.created",
        targetType: "api_key",
        targetLabel: `key ${i}`,
        createdAt: day(`2026-01-0${i + 1}T12:00:00Z`),
      })),
      { organizationId, actorType: "system" as const, actorLabel: "admin CLI (revoke-key)", action: "api_key.revoked", targetType: "api_key", createdAt: day("2026-01-03T13:00:00Z") },
    ]);
    const key = await auditReader(tenant);
    const labels = async (query: string) => (await entries(key, query)).data.map((entry) => entry.target.label ?? entry.action);

    expect(await labels("?action=api_key.created&created_to=2026-02-01")).toEqual(["key 4", "key 3", "key 2", "key 1", "key 0"]);
    const page2 = await entries(key, "?action=api_key.created&created_to=2026-02-01&per_page=2&page=2");
    expect(page2.meta).toEqual({ page: 2, per_page: 2, total: 5 });
    expect(page2.data.map((entry) => entry.target.label)).toEqual(["key 2", "key 1"]);
    expect(await labels("?created_from=2026-01-02&created_to=2026-01-04")).toEqual(["api_key.revoked", "key 2", "key 1"]);
    expect(await labels("?actor=admin%20cli&created_to=2026-02-01")).toEqual(["api_key.revoked"]);
    expect(await labels(`?actor=${tenant.user.email.toUpperCase()}&created_to=2026-01-02`)).toEqual(["key 0"]);
    expect(await labels(`?actor=${tenant.user.id}&created_to=2026-01-03`)).toEqual(["key 1", "key 0"]);
    // A LIKE wildcard is a character, not a pattern.
    expect(await labels("?actor=%25")).toEqual([]);

    expectApiError(await callApi(server.url(), key, "GET", "/v1/audit-log?action=api_key.stolen"), 400, "validation_failed");
    expectApiError(await callApi(server.url(), key, "GET", "/v1/audit-log?created_from=yesterday"), 400, "validation_failed");
    expectApiError(await callApi(server.url(), key, "GET", "/v1/audit-log?created_from=2026-02-01&created_to=2026-01-01"), 400, "validation_failed");

    // The Security page: the same filters from its form (to: a whole UTC day, included).
    const cookie = await sessionCookie(server.url(), tenant.user.email, TENANT_PASSWORD);
    const page = await readResult(
      await fetch(`${server.url()}/security?action=api_key.created&from=2026-01-02&to=2026-01-03`, { headers: { Cookie: cookie } }),
    );
    expect(page.status).toBe(200);
    expect([...page.text.matchAll(/data-testid="audit-row"/g)]).toHaveLength(2);
    expect(page.text).toContain("key 2");
    expect(page.text).toContain("key 1");
    expect(page.text).not.toContain("key 3");
  });

  it("is append-only: UPDATE is refused, DELETE only past the retention; the daily prune removes only old entries", async () => {
    const tenant = await createTenant();
    const organizationId = tenant.organization.id;
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    const entry = (label: string, days: number) => ({
      organizationId,
      actorType: "system" as const,
      actorLabel: "test",
      action: "api_key.created",
      targetType: "api_key",
      targetLabel: label,
      createdAt: daysAgo(days),
    });
    await db.insert(auditLog).values([entry("fresh", 0.01), entry("almost", 364), entry("old", 366), entry("ancient", 900)]);
    const labels = async () =>
      (await db.select({ label: auditLog.targetLabel }).from(auditLog).where(eq(auditLog.actorLabel, "test")).orderBy(auditLog.targetLabel)).map((r) => r.label);

    expect(await databaseRefusal(() => db.update(auditLog).set({ action: "api_key.revoked" }).where(eq(auditLog.organizationId, organizationId)))).toMatch(
      /append-only: entries cannot be changed/,
    );
    expect(await databaseRefusal(() => db.update(auditLog).set({ createdAt: daysAgo(1000) }).where(eq(auditLog.targetLabel, "fresh")))).toMatch(/append-only/);
    expect(await databaseRefusal(() => db.delete(auditLog).where(eq(auditLog.targetLabel, "fresh")))).toMatch(/younger than 365 days/);
    // A transaction cannot declare its way past the trigger's floor of one day.
    const declaredZero = () =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('audit_log.retention_days', '0', true)`);
        await tx.delete(auditLog).where(eq(auditLog.targetLabel, "fresh"));
      });
    expect(await databaseRefusal(declaredZero)).toMatch(/younger than 1 days/);
    expect(await labels()).toEqual(["almost", "ancient", "fresh", "old"]);

    // Through the daily cron, as a server runs it (AUDIT_LOG_RETENTION_DAYS: 365 by default).
    inProcessDriver().fireCron();
    await expect.poll(labels, { timeout: 5_000 }).toEqual(["almost", "fresh"]);
    // A shorter retention declared by the prune lets it delete what is past that.
    expect(await pruneAuditLog(30)).toBe(1);
    expect(await labels()).toEqual(["fresh"]);
    expect(await pruneAuditLog(30)).toBe(0);

    // Batches: a backlog larger than one batch goes over several calls.
    await db.execute(sql`
      insert into audit_log (organization_id, actor_type, actor_label, action, target_type, created_at)
      select ${organizationId}::uuid, 'system', 'bulk', 'api_key.created', 'api_key', now() - interval '400 days'
      from generate_series(1, 25) as n`);
    expect(await pruneAuditLog(365, 10)).toBe(10);
    expect(await pruneAuditLog(365, 10)).toBe(10);
    expect(await pruneAuditLog(365, 10)).toBe(5);

    // Deleting the organization takes its entries with it (the cascade), whatever their age.
    await db.execute(sql`delete from organizations where id = ${organizationId}`);
    const [left] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from audit_log where organization_id = ${organizationId}`));
    expect(left!.n).toBe(0);
  });
});
