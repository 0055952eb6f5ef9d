import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sectionOf } from "@/app/(dashboard)/_components/sections-list";
import { db } from "@/db/client";
import { invitations, USER_ROLES, type Role } from "@/db/schema";
import { acceptInvitation, changeOwnPassword, findOpenInvitation, INVITATION_TTL_MS, inviteMember, listInvitations, listMembers, removeMember, setMemberRole } from "@/lib/auth/members";
import { can, forbiddenMessage, PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { checkCredentials, createUser, sessionIsCurrent } from "@/lib/auth/users";
import { settleForm, type FormActionSpec } from "@/lib/dashboard/form-submission";
import type { FormState } from "@/lib/dashboard/forms";
import { ApiError } from "@/lib/http/errors";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";

const DASHBOARD = path.resolve(import.meta.dirname, "..", "..", "app", "(dashboard)");

function filesNamed(dir: string, name: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesNamed(path.join(dir, entry.name), name) : entry.name === name ? [path.join(dir, entry.name)] : [],
  );
}

/** Every dashboard form action there is, found in the app's actions files, with its spec. */
async function dashboardFormActions() {
  const found: { name: string; spec: FormActionSpec<unknown, FormState> }[] = [];
  for (const file of [...filesNamed(DASHBOARD, "actions.ts"), ...filesNamed(DASHBOARD, "actions.tsx")]) {
    const exports = (await import(file)) as Record<string, unknown>;
    for (const [exported, value] of Object.entries(exports)) {
      const spec = (value as { spec?: FormActionSpec<unknown, FormState> } | undefined)?.spec;
      if (spec) found.push({ name: `${path.relative(DASHBOARD, file)} ${exported}`, spec });
    }
  }
  return found;
}

/** The definition of the roles, written out once more so the table cannot drift from it unnoticed. */
const EXPECTED: Record<Role, Permission[]> = {
  owner: ["read", "account", "catalog", "refunds", "api_keys", "integrations", "deliveries", "logs", "members", "audit"],
  admin: ["read", "account", "catalog", "refunds", "api_keys", "integrations", "deliveries", "logs", "members", "audit"],
  developer: ["read", "account", "api_keys", "integrations", "deliveries", "logs"],
  viewer: ["read", "account"],
};

async function member(organizationId: string, role: Role, label: string = role) {
  const user = await createUser({ organizationId, email: `member-${label}-${organizationId}@example.test`, password: "a long password", role });
  return { ...user, actor: { userId: user.id, role } };
}

async function refusal(run: () => Promise<unknown>): Promise<ApiError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the call to be refused");
}

describe("roles: the permission table and every dashboard form action", () => {
  useTestDatabase();

  it("gives each role exactly the permissions the issue defines", () => {
    for (const role of USER_ROLES) {
      const granted = (Object.keys(PERMISSIONS) as Permission[]).filter((permission) => can(role, permission));
      expect(granted.sort(), role).toEqual([...EXPECTED[role]].sort());
    }
  });

  it("refuses every form action at the form for each role without its permission, before reading the input", async () => {
    const actions = await dashboardFormActions();
    // The members, account, API key, integration, delivery, event, venue and order actions at least.
    expect(actions.length).toBeGreaterThanOrEqual(20);
    const { organization } = await createTenant();
    for (const role of USER_ROLES) {
      const user = await member(organization.id, role);
      const session = { organizationId: organization.id, userId: user.id, email: user.email, sessionVersion: 0, role };
      for (const { name, spec } of actions) {
        // A field no form has: an allowed role gets a parse refusal, so no action really runs here.
        const probe = new FormData();
        probe.append("matrix_probe", "1");
        const outcome = await settleForm(spec, session, probe);
        expect(outcome.ok, `${role} → ${name} ran`).toBe(false);
        const refused = outcome.state.error === forbiddenMessage(role, spec.permission);
        expect(refused, `${role} → ${name} (${spec.permission})`).toBe(!EXPECTED[role].includes(spec.permission));
        if (refused) expect(outcome.ok).toBe(false);
      }
    }
  });

  it("checks a permission on every dashboard page and every server action that is not a form action", () => {
    const secretPages = ["api-keys", "integrations", "deliveries", "logs", "members", "security"];
    for (const file of filesNamed(DASHBOARD, "page.tsx")) {
      const permissions = [...readFileSync(file, "utf8").matchAll(/requireSession\("(\w+)"\)/g)].map((m) => m[1] as Permission);
      const name = path.relative(DASHBOARD, file);
      expect(permissions, name).toHaveLength(1);
      expect(Object.keys(PERMISSIONS), name).toContain(permissions[0]);
      if (secretPages.includes(name.split(path.sep)[0]!)) expect(can("viewer", permissions[0]!), name).toBe(false);
      // The layout answers a section's pages with the section's permission (a real 403 before streaming).
      const section = sectionOf(`/${path.dirname(name).split(path.sep).join("/")}`);
      if (section) expect(permissions[0], name).toBe(section.permission);
    }
    for (const file of filesNamed(DASHBOARD, "actions.ts")) {
      const source = readFileSync(file, "utf8");
      const plainActions = [...source.matchAll(/export async function (\w+)\([^)]*\)[^{]*\{\n([^\n]*)/g)];
      for (const [, name, firstLine] of plainActions) {
        if (name === "signOutAction") continue;
        expect(firstLine, `${path.relative(DASHBOARD, file)} ${name}`).toMatch(/requireSession\("(api_keys|integrations|deliveries|members)"\)/);
      }
    }
  });
});

describe("members: invitations, roles and the last owner", () => {
  useTestDatabase();

  it("invites with a one-time link valid 7 days that creates the member with the role and signs in", async () => {
    const { organization, user } = await createTenant();
    const now = new Date();
    const { token, expiresAt } = await inviteMember({ organizationId: organization.id, email: "New@Example.test", role: "developer", actor: { userId: user.id, role: "owner" } }, now);
    expect(expiresAt.getTime() - now.getTime()).toBe(INVITATION_TTL_MS);
    const [stored] = await db.select().from(invitations).where(eq(invitations.organizationId, organization.id));
    expect(stored!.tokenHash).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect((await listInvitations(organization.id)).map((i) => i.email)).toEqual(["new@example.test"]);
    expect(await findOpenInvitation(token)).toMatchObject({ organizationId: organization.id, role: "developer", email: "new@example.test" });

    const created = await acceptInvitation(token, "their own password");
    expect(created).toMatchObject({ organizationId: organization.id, role: "developer", email: "new@example.test" });
    expect(await checkCredentials("new@example.test", "their own password")).toMatchObject({ id: created.id });

    // Single use: the second acceptance, even with another password, finds nothing.
    expect((await refusal(() => acceptInvitation(token, "another password"))).code).toBe("not_found");
    expect(await findOpenInvitation(token)).toBeNull();
    expect(await listInvitations(organization.id)).toEqual([]);
  });

  it("refuses an expired invitation and keeps invitations to their organization", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const sent = new Date(Date.now() - INVITATION_TTL_MS - 1000);
    const old = await inviteMember({ organizationId: a.organization.id, email: "late@example.test", role: "viewer", actor: null }, sent);
    expect(await findOpenInvitation(old.token)).toBeNull();
    expect((await refusal(() => acceptInvitation(old.token, "a long password"))).code).toBe("not_found");
    expect(await checkCredentials("late@example.test", "a long password")).toBeNull();

    const fresh = await inviteMember({ organizationId: a.organization.id, email: "mine@example.test", role: "viewer", actor: null });
    expect(await listInvitations(b.organization.id)).toEqual([]);
    const joined = await acceptInvitation(fresh.token, "a long password");
    expect(joined.organizationId).toBe(a.organization.id);
    // Another organization's owner can neither re-role nor remove the member: it is not theirs (404).
    const outsider = { userId: b.user.id, role: "owner" as const };
    expect((await refusal(() => setMemberRole(b.organization.id, joined.id, "owner", outsider))).code).toBe("not_found");
    expect((await refusal(() => removeMember(b.organization.id, joined.id, outsider))).code).toBe("not_found");
    expect((await listMembers(a.organization.id)).map((m) => m.id)).toContain(joined.id);
    // An e-mail that already has a user cannot be invited again.
    expect((await refusal(() => inviteMember({ organizationId: b.organization.id, email: "MINE@example.test", role: "viewer", actor: null }))).code).toBe("conflict");
  });

  it("lets admins manage everyone except owners, and no one but managers manage members", async () => {
    const { organization, user: owner } = await createTenant();
    const admin = await member(organization.id, "admin");
    const developer = await member(organization.id, "developer");
    const viewer = await member(organization.id, "viewer");
    const asAdmin = admin.actor;
    expect((await refusal(() => setMemberRole(organization.id, owner.id, "viewer", asAdmin))).code).toBe("forbidden");
    expect((await refusal(() => removeMember(organization.id, owner.id, asAdmin))).code).toBe("forbidden");
    expect((await refusal(() => setMemberRole(organization.id, developer.id, "owner", asAdmin))).code).toBe("forbidden");
    expect((await refusal(() => inviteMember({ organizationId: organization.id, email: "o@example.test", role: "owner", actor: asAdmin }))).code).toBe("forbidden");
    expect((await refusal(() => setMemberRole(organization.id, viewer.id, "admin", developer.actor))).code).toBe("forbidden");

    const subject = { userId: developer.id, organizationId: organization.id, sessionVersion: developer.sessionVersion };
    await setMemberRole(organization.id, developer.id, "viewer", asAdmin);
    // The new role ends the member's sessions: no page stays open under the old one.
    expect(await sessionIsCurrent(subject)).toBe(false);
    await removeMember(organization.id, viewer.id, asAdmin);
    expect((await listMembers(organization.id)).map((m) => [m.id, m.role])).toEqual([
      [owner.id, "owner"],
      [admin.id, "admin"],
      [developer.id, "viewer"],
    ]);
    // Anyone may leave.
    await removeMember(organization.id, developer.id, { userId: developer.id, role: "viewer" });
    expect(await sessionIsCurrent({ ...subject, sessionVersion: subject.sessionVersion + 1 })).toBe(false);
  });

  it("changes one's own password only with the current one, ending the other sessions", async () => {
    const { organization } = await createTenant();
    const viewer = await member(organization.id, "viewer");
    const subject = { userId: viewer.id, organizationId: organization.id, sessionVersion: viewer.sessionVersion };
    const wrong = await refusal(() => changeOwnPassword(subject, "not the password", "a new long password"));
    expect(wrong.details).toEqual([{ path: "current", message: "The current password is wrong" }]);
    expect(await sessionIsCurrent(subject)).toBe(true);
    expect(await changeOwnPassword(subject, "a long password", "a new long password")).toBe(viewer.email);
    expect(await sessionIsCurrent(subject)).toBe(false);
    expect(await checkCredentials(viewer.email, "a long password")).toBeNull();
    expect(await checkCredentials(viewer.email, "a new long password")).toMatchObject({ id: viewer.id });
    // Another organization's id for the same user finds nothing to change.
    const other = await createTenant();
    expect((await refusal(() => changeOwnPassword({ ...subject, organizationId: other.organization.id }, "a new long password", "x".repeat(12)))).code).toBe(
      "validation_failed",
    );
  });

  it("always keeps an owner, also when two owners demote each other at once", async () => {
    const { organization, user } = await createTenant();
    const self = { userId: user.id, role: "owner" as const };
    expect((await refusal(() => setMemberRole(organization.id, user.id, "admin", self))).code).toBe("conflict");
    expect((await refusal(() => removeMember(organization.id, user.id, self))).code).toBe("conflict");
    expect((await refusal(() => removeMember(organization.id, user.id, null))).message).toMatch(/at least one owner/);

    const second = await member(organization.id, "owner", "second");
    const results = await Promise.allSettled([
      setMemberRole(organization.id, second.id, "admin", self),
      setMemberRole(organization.id, user.id, "admin", second.actor),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const owners = (await listMembers(organization.id)).filter((m) => m.role === "owner");
    expect(owners).toHaveLength(1);
  });
});
