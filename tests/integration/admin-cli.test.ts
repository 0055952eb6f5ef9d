import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, count, eq, isNotNull } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, openDatabase, setDatabaseHandle } from "@/db/client";
import { orderItems, orders, webhookDeliveries } from "@/db/schema";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { verifyUserToken } from "@/lib/auth/user-token";
import { findOpenInvitation } from "@/lib/auth/members";
import { checkCredentials, sessionIsCurrent } from "@/lib/auth/users";
import { fromPublicId } from "@/lib/ids";
import { attemptDelivery } from "@/lib/webhooks/attempt";
import { startReceiver } from "../support/receiver";
import { insertDelivery } from "../support/webhooks";

const root = path.resolve(import.meta.dirname, "..", "..");
const tsxCli = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: Record<string, unknown>;
}

/**
 * Runs the admin CLI the way an operator does, against a database of its own: a PGlite directory in a
 * temporary DATA_DIR, or a fresh PostgreSQL database when TEST_DATABASE_URL is set.
 */
describe("admin CLI", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "admin-cli-"));
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl) return;
    const name = `test_cli_${process.pid}_${randomBytes(4).toString("hex")}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  });

  afterAll(async () => {
    await dropDatabase?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function admin(...args: string[]): Promise<CliResult> {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" };
    if (databaseUrl) env.DATABASE_URL = databaseUrl;
    else delete env.DATABASE_URL;
    return new Promise((resolve) => {
      execFile(process.execPath, [tsxCli, "--conditions=react-server", "lib/cli/admin.ts", ...args], { cwd: root, env }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        let json: Record<string, unknown> = {};
        if (code === 0) json = JSON.parse(stdout) as Record<string, unknown>;
        resolve({ code, stdout, stderr, json });
      });
    });
  }

  /** Opens the CLI's database in this process between CLI runs (PGlite allows one process at a time). */
  async function withDatabase<T>(fn: () => Promise<T>): Promise<T> {
    const handle = openDatabase(databaseUrl ? { url: databaseUrl } : { pgliteDir: path.join(dataDir, "pglite") });
    setDatabaseHandle(handle);
    try {
      return await fn();
    } finally {
      setDatabaseHandle(undefined);
      await handle.close();
    }
  }

  let orgId = "";

  it("create-org prints the organization as JSON with its public id", async () => {
    const result = await admin("create-org", "--name", "Acme Tickets AB", "--currency", "EUR");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({ name: "Acme Tickets AB", currency: "EUR" });
    expect(result.json.id).toMatch(/^org_[0-9a-f]{32}$/);
    orgId = result.json.id as string;
  });

  it("rejects bad input with exit code 1, a message on stderr and nothing on stdout", async () => {
    const cases: [string[], RegExp][] = [
      [["create-org"], /--name is required/],
      [["create-org", "--name", "X", "--colour", "red"], /unknown option --colour/],
      [["create-key", "--org", "org_nope", "--scopes", "orders:read"], /not a valid id/],
      [["create-key", "--org", orgId, "--scopes", "orders:read,root"], /unknown scope "root"/],
      [["no-such-command"], /Unknown command "no-such-command"/],
      [["create-user", "--org", "org_00000000000000000000000000000000", "--email", "a@b.test", "--password", "long enough"], /not found/],
    ];
    const results = await Promise.all(cases.map(([args]) => admin(...args)));
    results.forEach((result, i) => {
      expect(result.code, cases[i]![0].join(" ")).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(cases[i]![1]);
    });
  });

  it("create-key prints a key that authenticates with its scopes; revoke-key disables it", async () => {
    const created = await admin("create-key", "--org", orgId, "--scopes", "orders:read,events:write", "--rate-limit", "600", "--name", "Ops");
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ name: "Ops", scopes: ["orders:read", "events:write"], rate_limit_per_minute: 600, organization_id: orgId });
    expect(created.json.id).toMatch(/^key_[0-9a-f]{32}$/);
    const key = created.json.key as string;
    expect(key).toMatch(/^sk_/);

    const authenticated = await withDatabase(() => authenticateApiKey(key));
    expect(authenticated).toMatchObject({
      organizationId: fromPublicId("organization", orgId),
      scopes: ["orders:read", "events:write"],
      rateLimitPerMinute: 600,
    });

    const revoked = await admin("revoke-key", "--key-id", created.json.id as string);
    expect(revoked.code).toBe(0);
    expect(revoked.json).toMatchObject({ id: created.json.id });
    expect(await withDatabase(() => authenticateApiKey(key))).toBeNull();

    const again = await admin("revoke-key", "--key-id", created.json.id as string);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not found or already revoked/);
  });

  it("create-user and issue-token give a dashboard token that verifies", async () => {
    const user = await admin("create-user", "--org", orgId, "--email", "Ops@Acme.test", "--password", "correct horse battery");
    expect(user.code).toBe(0);
    expect(user.json).toMatchObject({ email: "ops@acme.test", organization_id: orgId });
    expect(user.json.id).toMatch(/^usr_[0-9a-f]{32}$/);

    const token = await admin("issue-token", "--email", "ops@acme.test", "--ttl-seconds", "120");
    expect(token.code).toBe(0);
    const claims = await verifyUserToken(token.json.token as string);
    expect(claims).toMatchObject({
      sub: fromPublicId("user", user.json.id as string),
      org: fromPublicId("organization", orgId),
    });
    expect(claims!.exp - claims!.iat).toBe(120);
  });

  it("set-password changes the password and ends the user's sessions and tokens", async () => {
    await admin("create-user", "--org", orgId, "--email", "night@acme.test", "--password", "the first password");
    const issued = await admin("issue-token", "--email", "night@acme.test");
    const claims = (await verifyUserToken(issued.json.token as string))!;
    const subject = { userId: claims.sub, organizationId: claims.org, sessionVersion: claims.sv };
    expect(await withDatabase(() => sessionIsCurrent(subject))).toBe(true);

    const changed = await admin("set-password", "--email", "night@acme.test", "--password", "the second password");
    expect(changed.stderr).toBe("");
    expect(changed.json).toMatchObject({ email: "night@acme.test", sessions_ended: true });
    expect(await withDatabase(() => sessionIsCurrent(subject))).toBe(false);
    expect(await withDatabase(() => checkCredentials("night@acme.test", "the first password"))).toBeNull();
    expect(await withDatabase(() => checkCredentials("night@acme.test", "the second password"))).toMatchObject({ id: claims.sub });

    const unknown = await admin("set-password", "--email", "nobody@acme.test", "--password", "long enough");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No user/);
  });

  it("create-user defaults to owner for an organization's first user and viewer after; set-role and invite manage roles", async () => {
    const org = await admin("create-org", "--name", "Roles AB");
    const first = await admin("create-user", "--org", org.json.id as string, "--email", "first@roles.test", "--password", "long enough");
    expect(first.json).toMatchObject({ role: "owner" });
    const second = await admin("create-user", "--org", org.json.id as string, "--email", "second@roles.test", "--password", "long enough");
    expect(second.json).toMatchObject({ role: "viewer" });
    const chosen = await admin("create-user", "--org", org.json.id as string, "--email", "third@roles.test", "--password", "long enough", "--role", "developer");
    expect(chosen.json).toMatchObject({ role: "developer" });

    const lastOwner = await admin("set-role", "--email", "first@roles.test", "--role", "admin");
    expect(lastOwner.code).toBe(1);
    expect(lastOwner.stderr).toMatch(/at least one owner/);
    expect((await admin("set-role", "--email", "second@roles.test", "--role", "owner")).json).toMatchObject({ role: "owner", sessions_ended: true });
    expect((await admin("set-role", "--email", "first@roles.test", "--role", "admin")).json).toMatchObject({ role: "admin" });
    expect((await admin("set-role", "--email", "first@roles.test", "--role", "root")).stderr).toMatch(/unknown role "root"/);

    const invited = await admin("invite", "--org", org.json.id as string, "--email", "Guest@Roles.test", "--role", "developer");
    expect(invited.stderr).toBe("");
    expect(invited.json).toMatchObject({ email: "guest@roles.test", role: "developer", path: expect.stringMatching(/^\/invite\/[\w-]{40,}$/) });
    const token = (invited.json.path as string).slice("/invite/".length);
    expect(await withDatabase(() => findOpenInvitation(token))).toMatchObject({ role: "developer", email: "guest@roles.test" });
  });

  it("create-integration prints the integration with its signing secret", async () => {
    const result = await admin("create-integration", "--org", orgId, "--url", "https://127.0.0.1:9/hooks");
    expect(result.stderr).toBe("");
    expect(result.json).toMatchObject({ events: ["OrderCompleted"], enabled: true, organization_id: orgId });
    expect(result.json.id).toMatch(/^int_/);
    expect(result.json.signing_secret).toEqual(expect.any(String));
  });

  it("create-integration --unsigned prints no secret, and its deliveries carry no signature headers", async () => {
    const hook = await startReceiver(() => ({ status: 204 }));
    try {
      const result = await admin("create-integration", "--org", orgId, "--url", hook.url, "--unsigned");
      expect(result.stderr).toBe("");
      expect(result.json).toMatchObject({ url: hook.url, events: ["OrderCompleted"], enabled: true, organization_id: orgId });
      expect(result.json).not.toHaveProperty("signing_secret");

      const organizationId = fromPublicId("organization", orgId)!;
      const progress = await withDatabase(async () => attemptDelivery((await insertDelivery(organizationId, result.json.id as string)).id));
      expect(progress).toMatchObject({ status: "Success", attemptCount: 1 });
      expect(hook.requests).toHaveLength(1);
      expect(hook.requests[0]!.headers).toMatchObject({ "x-webhook-event-type": "OrderCompleted", "x-webhook-attempt": "1" });
      expect(hook.requests[0]!.headers).not.toHaveProperty("x-webhook-signature");
      expect(hook.requests[0]!.headers).not.toHaveProperty("x-webhook-timestamp");
    } finally {
      await hook.close();
    }
  });

  it("seed-orders adds exactly the requested number of orders, as an import: no webhook fires", async () => {
    const result = await admin("seed-orders", "--org", orgId, "--count", "500");
    expect(result.stderr).toBe("");
    expect(result.json).toMatchObject({ inserted: 500, first_order_number: 1, last_order_number: 500 });
    const organizationId = fromPublicId("organization", orgId)!;
    const counts = await withDatabase(async () => {
      const [o] = await db.select({ n: count() }).from(orders).where(eq(orders.organizationId, organizationId));
      const [i] = await db
        .select({ n: count() })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .where(eq(orders.organizationId, organizationId));
      // The organization has integrations (created above) subscribed to OrderCompleted.
      const [d] = await db
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.organizationId, organizationId), isNotNull(webhookDeliveries.orderId)));
      return { orders: o!.n, items: i!.n, deliveries: d!.n };
    });
    expect(counts).toEqual({ orders: 500, items: 500, deliveries: 0 });
  });

  it("refuses to open PGlite while a started server holds it; PostgreSQL needs no such guard", async () => {
    // Any live process other than the CLI itself stands in for the server.
    writeFileSync(path.join(dataDir, "server.pid"), `${process.pid}\n`);
    try {
      const result = await admin("create-org", "--name", "Blocked");
      if (databaseUrl) {
        expect(result.code).toBe(0);
      } else {
        expect(result.code).toBe(1);
        expect(result.stdout).toBe("");
        expect(result.stderr).toMatch(new RegExp(`pid ${process.pid}\\).*only one process`));
      }
    } finally {
      rmSync(path.join(dataDir, "server.pid"));
    }
  });
});
