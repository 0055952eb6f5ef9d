import "server-only";
import { and, asc, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { db, type Queryable } from "@/db/client";
import { invitations, organizations, users, type Role } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import { ApiError } from "@/lib/http/errors";
import { randomToken, sha256Hex, verifyPassword } from "./secrets";
import { changePassword, createUser, findUserByEmail, type SessionSubject } from "./users";

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Who changes the membership: a dashboard user with their role, or the operator's CLI (null: may do anything). */
export type MemberActor = { userId: string; role: Role } | null;

/** Admins manage everyone except owners: they neither touch an owner nor make one. */
function assertMayManage(actor: MemberActor, ...roles: Role[]): void {
  if (actor?.role === "admin" && roles.includes("owner")) {
    throw new ApiError("forbidden", "Only an owner can invite, change or remove an owner");
  }
  if (actor && actor.role !== "owner" && actor.role !== "admin") {
    throw new ApiError("forbidden", `Your role (${actor.role}) cannot manage members`);
  }
}

export async function listMembers(organizationId: string, q: Queryable = db) {
  return q
    .select({ id: users.id, email: users.email, name: users.name, role: users.role, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.organizationId, organizationId))
    .orderBy(asc(users.createdAt), asc(users.email));
}

/** Open invitations (not accepted, not expired), newest first. */
export async function listInvitations(organizationId: string, now = new Date(), q: Queryable = db) {
  return q
    .select({ id: invitations.id, email: invitations.email, role: invitations.role, expiresAt: invitations.expiresAt })
    .from(invitations)
    .where(and(eq(invitations.organizationId, organizationId), isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)))
    .orderBy(desc(invitations.createdAt));
}

/** The one-time token of a new invitation, valid 7 days; only its hash is stored, so it is shown once. */
export async function inviteMember(
  input: { organizationId: string; email: string; role: Role; actor: MemberActor },
  now = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  assertMayManage(input.actor, input.role);
  const email = input.email.trim().toLowerCase();
  if (await findUserByEmail(email)) throw new ApiError("conflict", `A user with the e-mail ${email} already exists`);
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  await db.transaction(async (tx) => {
    const [invitation] = await tx
      .insert(invitations)
      .values({
        organizationId: input.organizationId,
        email,
        role: input.role,
        tokenHash: sha256Hex(token),
        invitedBy: input.actor?.userId ?? null,
        expiresAt,
      })
      .returning({ id: invitations.id });
    await recordAudit(tx, {
      organizationId: input.organizationId,
      action: "member.invited",
      target: { type: "invitation", id: invitation!.id, label: email },
      details: { role: input.role, expires_at: expiresAt.toISOString() },
    });
  });
  return { token, expiresAt };
}

/** An invitation that can still be accepted, with its organization's name; null when unknown, used or expired. */
export async function findOpenInvitation(token: string, now = new Date(), q: Queryable = db) {
  const [row] = await q
    .select({
      id: invitations.id,
      organizationId: invitations.organizationId,
      organizationName: organizations.name,
      email: invitations.email,
      role: invitations.role,
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(and(eq(invitations.tokenHash, sha256Hex(token)), isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

/** Creates the invited user with the chosen password; the invitation is used up in the same transaction. */
export async function acceptInvitation(token: string, password: string, now = new Date()) {
  return db.transaction(async (tx) => {
    // Locked, so two submissions of one link create one user.
    const [invitation] = await tx
      .select()
      .from(invitations)
      .where(and(eq(invitations.tokenHash, sha256Hex(token)), isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)))
      .for("update");
    if (!invitation) throw new ApiError("not_found", "This invitation is unknown, already used or expired");
    if (await findUserByEmail(invitation.email, tx)) throw new ApiError("conflict", `A user with the e-mail ${invitation.email} already exists`);
    await tx.update(invitations).set({ acceptedAt: now }).where(eq(invitations.id, invitation.id));
    const user = await createUser({ organizationId: invitation.organizationId, email: invitation.email, password, role: invitation.role }, tx);
    await recordAudit(tx, {
      organizationId: invitation.organizationId,
      action: "invitation.accepted",
      // The link is the new member's: they act, as the user it just made.
      actor: { type: "user", id: user.id, label: user.email },
      target: { type: "user", id: user.id, label: user.email },
      details: { role: invitation.role, invitation_id: invitation.id },
    });
    return user;
  });
}

/**
 * Runs a membership change with the organization row locked, after checking it leaves an owner: concurrent
 * changes (two owners demoting each other) queue behind the lock instead of both passing the count.
 */
async function changeMember(
  organizationId: string,
  userId: string,
  actor: MemberActor,
  newRole: Role | null,
  apply: (tx: Queryable, target: { role: Role; email: string }) => Promise<unknown>,
) {
  return db.transaction(async (tx) => {
    await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId)).for("update");
    const [target] = await tx
      .select({ role: users.role, email: users.email })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.organizationId, organizationId)));
    if (!target) throw new ApiError("not_found", "Member not found");
    if (actor?.userId !== userId) assertMayManage(actor, target.role, ...(newRole ? [newRole] : []));
    else if (newRole) assertMayManage(actor, newRole);
    if (target.role === "owner" && newRole !== "owner") {
      const [owners] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(users)
        .where(and(eq(users.organizationId, organizationId), eq(users.role, "owner")));
      if ((owners?.count ?? 0) <= 1) {
        throw new ApiError("conflict", "An organization keeps at least one owner: make another member owner first");
      }
    }
    await apply(tx, target);
  });
}

/** A new role; the member's sessions end so no session keeps the old role's pages open. */
export async function setMemberRole(organizationId: string, userId: string, role: Role, actor: MemberActor) {
  await changeMember(organizationId, userId, actor, role, async (tx, target) => {
    await tx
      .update(users)
      .set({ role, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(and(eq(users.id, userId), eq(users.organizationId, organizationId)));
    await recordAudit(tx, {
      organizationId,
      action: "member.role_changed",
      target: { type: "user", id: userId, label: target.email },
      details: { from: target.role, to: role },
    });
  });
}

/** Removes the member (or, as the actor, leaves): their sessions and user tokens end with the user row. */
export async function removeMember(organizationId: string, userId: string, actor: MemberActor) {
  await changeMember(organizationId, userId, actor, null, async (tx, target) => {
    // Recorded first: the actor's label is read from their user row, which leaving deletes.
    await recordAudit(tx, {
      organizationId,
      action: actor?.userId === userId ? "member.left" : "member.removed",
      target: { type: "user", id: userId, label: target.email },
      details: { role: target.role },
    });
    await tx.delete(users).where(and(eq(users.id, userId), eq(users.organizationId, organizationId)));
  });
}

/**
 * Changes the signed-in user's own password after checking the current one; every session ends (the
 * caller signs this one in again). Returns the e-mail to sign in with.
 */
export async function changeOwnPassword(subject: SessionSubject, current: string, next: string): Promise<string> {
  const [user] = await db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, subject.userId), eq(users.organizationId, subject.organizationId)));
  if (!user || !(await verifyPassword(current, user.passwordHash))) {
    throw new ApiError("validation_failed", "The current password is wrong", [{ path: "current", message: "The current password is wrong" }]);
  }
  if (!(await changePassword(subject.userId, next))) throw new ApiError("not_found", "Member not found");
  return user.email;
}
