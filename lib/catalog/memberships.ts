import { and, count, desc, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { memberships } from "@/db/schema";
import { toPublicId } from "@/lib/ids";
import { pageMeta, pageOf } from "@/lib/http/pagination";
import { iso } from "./common-schemas";
import type { ListMembershipsQuery, Membership } from "./membership-schemas";

export function serializeMembership(row: typeof memberships.$inferSelect): Membership {
  return {
    id: toPublicId("membership", row.id),
    customer: { email: row.customerEmail, name: row.customerName },
    plan: row.plan,
    status: row.status,
    starts_at: iso(row.startsAt),
    ends_at: iso(row.endsAt),
    created_at: iso(row.createdAt),
  };
}

export async function listMemberships(organizationId: string, query: ListMembershipsQuery) {
  const where = and(
    eq(memberships.organizationId, organizationId),
    query.status ? eq(memberships.status, query.status) : undefined,
  );
  const { limit, offset } = pageOf(query);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(memberships)
      .where(where)
      .orderBy(desc(memberships.createdAt), desc(memberships.id))
      .limit(limit)
      .offset(offset),
    db.select({ value: count() }).from(memberships).where(where),
  ]);
  return { data: rows.map(serializeMembership), meta: pageMeta(query, total?.value ?? 0) };
}
