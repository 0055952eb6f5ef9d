import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { users } from "@/db/schema";
import { changePassword } from "@/lib/auth/users";
import { toPublicId } from "@/lib/ids";
import { createIntegration } from "@/lib/webhooks/integrations";
import { useTestDatabase } from "../support/database";
import { createTenant, TENANT_PASSWORD } from "../support/fixtures";
import { authSignOut, expectApiError, readResult, sessionCookie, type HttpResult } from "../support/http";
import { useReceivers } from "../support/receiver";
import { serverActionId } from "../support/server-actions";
import { useTestServer } from "../support/server";
import { insertDelivery } from "../support/webhooks";

/**
 * The dashboard's user token and session cookie from outside, over HTTP: sessions end server-side,
 * cookie-authenticated writes refuse other origins, and each user has a request budget.
 */
describe("dashboard sessions and user tokens", () => {
  useTestDatabase();
  const server = useTestServer();
  const receiver = useReceivers();

  /** A tenant with one delivery to a receiver that accepts everything, and a signed-in session. */
  async function tenantWithDelivery() {
    const hook = await receiver(() => ({ status: 200 }));
    const tenant = await createTenant();
    const integration = await createIntegration({ organizationId: tenant.organization.id, url: hook.url });
    const delivery = await insertDelivery(tenant.organization.id, integration.id);
    const cookie = await sessionCookie(server.url(), tenant.user.email, TENANT_PASSWORD);
    return { tenant, cookie, deliveryId: toPublicId("delivery", delivery.id) };
  }

  type Credential = { token: string } | { cookie: string };

  async function call(
    credential: Credential,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ): Promise<HttpResult> {
    const auth: Record<string, string> = "token" in credential ? { Authorization: `Bearer ${credential.token}` } : { Cookie: credential.cookie };
    return readResult(await fetch(`${server.url()}${path}`, { method, redirect: "manual", headers: { ...auth, ...headers }, body }));
  }

  /** The three inspection calls a dashboard user can make: list, attempts and redeliver. */
  const inspectionCalls = (deliveryId: string) =>
    [
      ["GET", "/webhooks/deliveries"],
      ["GET", `/webhooks/deliveries/${deliveryId}/attempts`],
      ["POST", `/webhooks/deliveries/${deliveryId}/redeliver`],
    ] as const;

  async function expectAllRefused(credential: Credential, deliveryId: string, label: string) {
    for (const [method, path] of inspectionCalls(deliveryId)) {
      expectApiError(await call(credential, method, path), 401, "unauthorized", `${label}: ${method} ${path}`);
    }
  }

  it("ends the session cookie and the user token of a deleted user", async () => {
    const { tenant, cookie, deliveryId } = await tenantWithDelivery();
    for (const credential of [{ token: tenant.userToken }, { cookie }]) {
      expect((await call(credential, "GET", "/webhooks/deliveries")).status).toBe(200);
    }
    await db.delete(users).where(eq(users.id, tenant.user.id));
    await expectAllRefused({ token: tenant.userToken }, deliveryId, "token");
    await expectAllRefused({ cookie }, deliveryId, "session");
  });

  it("ends every session and user token of the user on sign-out, and a new sign-in works", async () => {
    const { tenant, cookie, deliveryId } = await tenantWithDelivery();
    const otherDevice = await sessionCookie(server.url(), tenant.user.email, TENANT_PASSWORD);
    expect((await call({ cookie }, "GET", "/webhooks/deliveries")).status).toBe(200);

    const signOut = await authSignOut(server.url(), cookie);
    expect(signOut.status).toBe(302);
    // The browser forgets its cookie; whoever kept a copy must be refused all the same.
    await expectAllRefused({ cookie }, deliveryId, "signed-out session");
    await expectAllRefused({ cookie: otherDevice }, deliveryId, "the user's other session");
    await expectAllRefused({ token: tenant.userToken }, deliveryId, "the user's token");
    const page = await call({ cookie }, "GET", "/overview");
    expect(page.status).toBe(307);
    expect(page.header("location")).toMatch(/\/login$/);

    const fresh = await sessionCookie(server.url(), tenant.user.email, TENANT_PASSWORD);
    expect((await call({ cookie: fresh }, "GET", "/webhooks/deliveries")).status).toBe(200);
    expect((await call({ cookie: fresh }, "GET", "/overview")).status).toBe(200);
  });

  it("ends the sessions and user tokens of a user whose password changes", async () => {
    const { tenant, cookie, deliveryId } = await tenantWithDelivery();
    expect((await call({ cookie }, "GET", "/webhooks/deliveries")).status).toBe(200);
    expect(await changePassword(tenant.user.id, "a new and longer password")).toBe(true);
    await expectAllRefused({ cookie }, deliveryId, "session");
    await expectAllRefused({ token: tenant.userToken }, deliveryId, "token");
    const fresh = await sessionCookie(server.url(), tenant.user.email, "a new and longer password");
    expect((await call({ cookie: fresh }, "GET", "/webhooks/deliveries")).status).toBe(200);
  });

  it("refuses a cookie-authenticated POST from another origin with 403, and takes one from its own", async () => {
    const { cookie, deliveryId } = await tenantWithDelivery();
    const path = `/webhooks/deliveries/${deliveryId}/redeliver`;
    const own = new URL(server.url()).origin;
    for (const origin of ["https://evil.example", "null", "http://127.0.0.1:1", "http://localhost" + own.slice(own.lastIndexOf(":"))]) {
      expectApiError(await call({ cookie }, "POST", path, { Origin: origin }), 403, "forbidden", `Origin: ${origin}`);
    }
    // A proxy in front names the host the browser used.
    expectApiError(
      await call({ cookie }, "POST", path, { Origin: "https://evil.example", "X-Forwarded-Host": "dashboard.example" }),
      403,
      "forbidden",
    );
    expect((await call({ cookie }, "POST", path, { Origin: "https://dashboard.example", "X-Forwarded-Host": "dashboard.example" })).status).toBe(201);
    expect((await call({ cookie }, "POST", path, { Origin: own })).status).toBe(201);
    // Only writes are judged: a cross-origin read cannot see the answer without CORS.
    expect((await call({ cookie }, "GET", "/webhooks/deliveries", { Origin: "https://evil.example" })).status).toBe(200);
  });

  it("answers a server action posted from another origin with 403, and runs it from its own", async () => {
    const { cookie } = await tenantWithDelivery();
    const signOutAction = serverActionId("app/(dashboard)/actions.ts", "signOutAction");
    const post = (origin: string) =>
      call({ cookie }, "POST", "/overview", {
        Origin: origin,
        "Next-Action": signOutAction,
        "Content-Type": "text/plain;charset=UTF-8",
        Accept: "text/x-component",
      }, "[]");
    for (const origin of ["https://evil.example", "null"]) {
      expectApiError(await post(origin), 403, "forbidden", `Origin: ${origin}`);
    }
    // Without JavaScript a form posts the action as multipart form data, with no Next-Action header.
    const form = new FormData();
    form.set(`$ACTION_ID_${signOutAction}`, "");
    const formPost = await fetch(`${server.url()}/overview`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, Origin: "https://evil.example" },
      body: form,
    });
    expectApiError(await readResult(formPost), 403, "forbidden", "form post");
    // Refused before it ran: the session still works.
    expect((await call({ cookie }, "GET", "/webhooks/deliveries")).status).toBe(200);

    const own = await post(new URL(server.url()).origin);
    expect(own.status, own.text.slice(0, 300)).toBeLessThan(400);
    expect((await call({ cookie }, "GET", "/webhooks/deliveries")).status).toBe(401);
  });

  it("limits each user to 60 requests a minute across user token and session, with the API's headers and 429", async () => {
    const { tenant, cookie, deliveryId } = await tenantWithDelivery();
    const credentials: Credential[] = [{ token: tenant.userToken }, { cookie }];
    for (let i = 0; i < 60; i++) {
      const result = await call(credentials[i % 2]!, "GET", `/webhooks/deliveries/${deliveryId}`);
      expect(result.status, `request ${i + 1}`).toBe(200);
      expect(result.header("x-ratelimit-limit")).toBe("60");
      expect(result.header("x-ratelimit-remaining")).toBe(String(59 - i));
      expect(Number(result.header("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    }
    for (const credential of credentials) {
      const refused = await call(credential, "POST", `/webhooks/deliveries/${deliveryId}/redeliver`);
      expectApiError(refused, 429, "rate_limited");
      expect(refused.header("x-ratelimit-remaining")).toBe("0");
      expect(Number(refused.header("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.header("retry-after"))).toBeLessThanOrEqual(61);
    }
    // The budget is the user's own: another user is not held up.
    const colleague = await createTenant();
    expect((await call({ token: colleague.userToken }, "GET", "/webhooks/deliveries")).status).toBe(200);
  });
});
