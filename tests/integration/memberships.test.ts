import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { memberships } from "@/db/schema";
import { expectError, expectStatus, type Api } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { useTestServer } from "../support/server";

type Membership = { id: string; status: string; customer: { email: string; name: string } };

describe("GET /v1/memberships", () => {
  useTestDatabase();
  const server = useTestServer();
  let api: Api;
  let organizationId: string;

  const insertMembership = (
    orgId: string,
    n: number,
    status: "active" | "expired" | "cancelled",
    endsAt = new Date("2099-01-01T00:00:00Z"),
  ) =>
    db
      .insert(memberships)
      .values({
        organizationId: orgId,
        customerEmail: `member${n}@example.test`,
        customerName: `Member ${n}`,
        plan: n % 2 ? "Gold" : "Silver",
        status,
        startsAt: new Date("2026-01-01T00:00:00Z"),
        endsAt,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, n)),
      })
      .returning();

  beforeEach(async () => {
    const tenant = await createTenant({ scopes: ["customers:read"] });
    organizationId = tenant.organization.id;
    api = apiClient(server.url(), tenant.apiKey);
    await insertMembership(organizationId, 1, "active");
    await insertMembership(organizationId, 2, "expired");
    await insertMembership(organizationId, 3, "active");
    await insertMembership((await createTenant()).organization.id, 4, "active");
  });

  it("lists the organization's memberships newest first with customers:read", async () => {
    const body = await expectStatus<{ data: Membership[]; meta: unknown }>(await api("/v1/memberships"), 200);
    expect(body.meta).toEqual({ page: 1, per_page: 25, total: 3 });
    expect(body.data.map((m) => m.customer.email)).toEqual([
      "member3@example.test",
      "member2@example.test",
      "member1@example.test",
    ]);
    expect(body.data[0]).toEqual({
      id: expect.stringMatching(/^mem_[0-9a-f]{32}$/),
      customer: { email: "member3@example.test", name: "Member 3" },
      plan: "Gold",
      status: "active",
      starts_at: "2026-01-01T00:00:00.000Z",
      ends_at: "2099-01-01T00:00:00.000Z",
      created_at: "2026-01-01T00:03:00.000Z",
    });
  });

  it("filters by status and pages", async () => {
    const active = await expectStatus<{ data: Membership[]; meta: unknown }>(await api("/v1/memberships?status=active"), 200);
    expect(active.data.map((m) => m.customer.name)).toEqual(["Member 3", "Member 1"]);
    expect(active.meta).toEqual({ page: 1, per_page: 25, total: 2 });
    const page = await expectStatus<{ data: Membership[]; meta: unknown }>(await api("/v1/memberships?page=2&per_page=2"), 200);
    expect(page.data.map((m) => m.customer.name)).toEqual(["Member 1"]);
    expect(page.meta).toEqual({ page: 2, per_page: 2, total: 3 });
    const beyond = await expectStatus<{ data: Membership[] }>(await api("/v1/memberships?page=9"), 200);
    expect(beyond.data).toEqual([]);
  });

  it("shows an active membership whose end has passed as expired, in reads and in the status filter", async () => {
    await insertMembership(organizationId, 6, "active", new Date(Date.now() - 1000));
    const expired = await expectStatus<{ data: Membership[]; meta: unknown }>(await api("/v1/memberships?status=expired"), 200);
    expect(expired.data.map((m) => [m.customer.name, m.status])).toEqual([
      ["Member 6", "expired"],
      ["Member 2", "expired"],
    ]);
    const active = await expectStatus<{ data: Membership[] }>(await api("/v1/memberships?status=active"), 200);
    expect(active.data.map((m) => m.customer.name)).toEqual(["Member 3", "Member 1"]);
  });

  it("refuses bad query values", async () => {
    await expectError(await api("/v1/memberships?status=lapsed"), 400, "validation_failed", ["status"]);
    await expectError(await api("/v1/memberships?per_page=500&page=-1"), 400, "validation_failed", ["page", "per_page"]);
  });

  it("accepts memberships:read and refuses keys without either scope", async () => {
    const scoped = await createTenant({ scopes: ["memberships:read"] });
    await insertMembership(scoped.organization.id, 5, "cancelled");
    const own = await expectStatus<{ data: Membership[] }>(
      await apiClient(server.url(), scoped.apiKey)("/v1/memberships"),
      200,
    );
    expect(own.data.map((m) => [m.customer.name, m.status])).toEqual([["Member 5", "cancelled"]]);
    const forbidden = await expectError(
      await apiClient(server.url(), (await createTenant({ scopes: ["events:read", "orders:read"] })).apiKey)("/v1/memberships"),
      403,
      "forbidden",
    );
    expect(forbidden.error).toBe("Insufficient permissions. Required scope: memberships:read");
    await expectError(await api("/v1/memberships", { method: "POST", body: {} }), 405, "method_not_allowed");
  });
});
