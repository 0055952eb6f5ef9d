import { eq } from "drizzle-orm";
import { db, type Queryable } from "@/db/client";
import { organizations, type Currency } from "@/db/schema";

export async function createOrganization(input: { name: string; currency: Currency }, q: Queryable = db) {
  const [row] = await q.insert(organizations).values(input).returning();
  return row!;
}

export async function getOrganization(id: string, q: Queryable = db) {
  const [row] = await q.select().from(organizations).where(eq(organizations.id, id)).limit(1);
  return row ?? null;
}
