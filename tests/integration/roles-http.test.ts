import { describe, expect, it } from "vitest";
import { SECTIONS } from "@/app/(dashboard)/_components/sections-list";
import { USER_ROLES, type Role } from "@/db/schema";
import { removeMember } from "@/lib/auth/members";
import { can } from "@/lib/auth/permissions";
import { createUser } from "@/lib/auth/users";
import { issueUserToken } from "@/lib/auth/user-token";
import { OPERATIONS } from "@/lib/openapi/operations";
import { flushRequestLog } from "@/lib/request-log/buffer";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant, TENANT_PASSWORD } from "../support/fixtures";
import { callApi, expectApiError, readResult, sessionCookie } from "../support/http";
import { useTestServer } from "../support/server";

/** Every role against every /webhooks endpoint and every dashboard page, over real HTTP. */
describe("roles over HTTP", () => {
  useTestDatabase();
  const server = useTestServer();

  async function usersWithRoles() {
    const { organization, apiKey } = await createTenant();
    return Promise.all(
      USER_ROLES.map(async (role) => {
        const email = `${role}-http-${organization.id}@example.test`;
        const user = await createUser({ organizationId: organization.id, email, password: TENANT_PASSWORD, role });
        const token = await issueUserToken({ userId: user.id, organizationId: organization.id, sessionVersion: user.sessionVersion });
        return { role, user, email, token, organizationId: organization.id, apiKey };
      }),
    );
  }

  // A well-formed id of nothing: an allowed role reaches the handler (404), a refused one stops at 403.
  const fill = (path: string) => path.replace(/\{[^}]+\}/g, "dlv_00000000000000000000000000000000");

  it("answers every dashboard endpoint 403 with the error body for each role without its permission", async () => {
    const dashboardOperations = OPERATIONS.filter((op) => "dashboard" in op.access);
    expect(dashboardOperations.length).toBeGreaterThanOrEqual(4);
    for (const member of await usersWithRoles()) {
      for (const op of dashboardOperations) {
        const permission = (op.access as { dashboard: Parameters<typeof can>[1] }).dashboard;
        const label = `${member.role} → ${op.method.toUpperCase()} ${op.path}`;
        const result = await callApi(server.url(), member.token, op.method.toUpperCase(), fill(op.path), op.body ? { json: {} } : {});
        if (can(member.role, permission)) {
          expect([401, 403], label).not.toContain(result.status);
        } else {
          const body = expectApiError(result, 403, "forbidden", label);
          expect(body.error, label).toMatch(new RegExp(`role \\(${member.role}\\)`));
        }
      }
    }
  });

  it("serves each dashboard page to the roles with its permission, a 403 page to the others, and hides the nav entries", async () => {
    for (const member of await usersWithRoles()) {
      const cookie = await sessionCookie(server.url(), member.email, TENANT_PASSWORD);
      for (const section of SECTIONS) {
        const result = await readResult(await fetch(`${server.url()}${section.href}`, { headers: { Cookie: cookie }, redirect: "manual" }));
        const allowed = can(member.role, section.permission);
        expect(result.status, `${member.role} → ${section.href}`).toBe(allowed ? 200 : 403);
        if (!allowed) expect(result.text).toContain("Your role does not allow this page");
      }
      const overview = (await readResult(await fetch(`${server.url()}/overview`, { headers: { Cookie: cookie } }))).text;
      for (const section of SECTIONS) {
        expect(overview.includes(`href="${section.href}"`), `${member.role} nav ${section.href}`).toBe(can(member.role, section.permission));
      }
    }
  });

  it("shows a logged request's page to owners, admins and developers, the 403 page to viewers", async () => {
    const members = await usersWithRoles();
    const request = await apiClient(server.url(), members[0]!.apiKey)("/v1/venues", { headers: { "User-Agent": "roles-matrix-agent" } });
    await request.text();
    await flushRequestLog();
    const traceId = request.headers.get("x-trace-id")!;
    for (const member of members) {
      const cookie = await sessionCookie(server.url(), member.email, TENANT_PASSWORD);
      const result = await readResult(await fetch(`${server.url()}/logs/${traceId}`, { headers: { Cookie: cookie }, redirect: "manual" }));
      expect(result.status, member.role).toBe(can(member.role, "logs") ? 200 : 403);
      // The stored fields, not the URL's trace id (which the 403 page's route data names too).
      expect(result.text.includes("roles-matrix-agent"), member.role).toBe(can(member.role, "logs"));
    }
  });

  it("ends a removed member's session cookie and user token at once", async () => {
    const members = await usersWithRoles();
    const developer = members.find((m) => m.role === ("developer" satisfies Role))!;
    const cookie = await sessionCookie(server.url(), developer.email, TENANT_PASSWORD);
    expect((await callApi(server.url(), developer.token, "GET", "/webhooks/deliveries")).status).toBe(200);
    await removeMember(developer.organizationId, developer.user.id, null);
    expectApiError(await callApi(server.url(), developer.token, "GET", "/webhooks/deliveries"), 401, "unauthorized");
    const page = await fetch(`${server.url()}/deliveries`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(page.status).toBe(307);
    expect(page.headers.get("location")).toMatch(/\/login/);
  });
});
