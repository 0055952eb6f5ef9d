import { and, eq, sql } from "drizzle-orm";
import { db, type Queryable } from "@/db/client";
import { users } from "@/db/schema";
import { hashPassword, verifyPassword } from "./secrets";

export async function createUser(
  input: { organizationId: string; email: string; password: string; name?: string; role?: "admin" | "member" },
  q: Queryable = db,
) {
  const [row] = await q
    .insert(users)
    .values({
      organizationId: input.organizationId,
      email: input.email.trim().toLowerCase(),
      name: input.name,
      role: input.role ?? "admin",
      passwordHash: await hashPassword(input.password),
    })
    .returning({ id: users.id, organizationId: users.organizationId, email: users.email, role: users.role });
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

export async function userInOrganization(userId: string, organizationId: string, q: Queryable = db) {
  const [row] = await q
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organizationId, organizationId)))
    .limit(1);
  return Boolean(row);
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
