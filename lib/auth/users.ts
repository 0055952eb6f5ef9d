import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { db, type Queryable } from "@/db/client";
import { users, type Role } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import { hashPassword, verifyPassword } from "./secrets";

export async function createUser(
  input: { organizationId: string; email: string; password: string; name?: string; role?: Role },
  q: Queryable = db,
) {
  const [row] = await q
    .insert(users)
    .values({
      organizationId: input.organizationId,
      email: input.email.trim().toLowerCase(),
      name: input.name,
      // Owner unless told: the operator's first user of an organization; invitations and the CLI pass a role.
      role: input.role ?? "owner",
      passwordHash: await hashPassword(input.password),
    })
    .returning({
      id: users.id,
      organizationId: users.organizationId,
      email: users.email,
      role: users.role,
      sessionVersion: users.sessionVersion,
    });
  return row!;
}

export async function findUserByEmail(email: string, q: Queryable = db) {
  const [row] = await q
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .limit(1);
  return row ?? null;
}

/** Who a session or user token speaks for, and the session version it was issued under. */
export interface SessionSubject {
  userId: string;
  organizationId: string;
  sessionVersion: number;
}

/**
 * The role of a session or user token's user while it still holds: its user exists, in its organization,
 * and has not ended its sessions since (sign-out, password change, new role); else null. A deleted
 * user's sessions end with the user.
 */
export async function currentSessionRole(subject: SessionSubject, q: Queryable = db): Promise<Role | null> {
  const [row] = await q
    .select({ role: users.role })
    .from(users)
    .where(
      and(
        eq(users.id, subject.userId),
        eq(users.organizationId, subject.organizationId),
        eq(users.sessionVersion, subject.sessionVersion),
      ),
    )
    .limit(1);
  return row?.role ?? null;
}

export async function sessionIsCurrent(subject: SessionSubject, q: Queryable = db): Promise<boolean> {
  return (await currentSessionRole(subject, q)) !== null;
}

/** Ends every session and user token of the user, on every device (sign-out). */
export async function endUserSessions(userId: string, q: Queryable = db): Promise<void> {
  await q
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId));
}

/** Sets a new password; the user's existing sessions and tokens end with the old one. */
export async function changePassword(userId: string, password: string, q: Queryable = db): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  return q.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, userId))
      .returning({ id: users.id, organizationId: users.organizationId, email: users.email });
    if (!row) return false;
    await recordAudit(tx, { organizationId: row.organizationId, action: "user.password_changed", target: { type: "user", id: row.id, label: row.email } });
    return true;
  });
}

// A dummy hash to compare against when the e-mail is unknown, so timing does not reveal which part was wrong.
let dummyHash: Promise<string> | undefined;

/** The user for an e-mail and password, or null; the same work is done whether or not the user exists. */
export async function checkCredentials(email: string, password: string) {
  const user = await findUserByEmail(email);
  dummyHash ??= hashPassword("not-a-real-password");
  const valid = await verifyPassword(password, user?.passwordHash ?? (await dummyHash));
  return user && valid ? user : null;
}
