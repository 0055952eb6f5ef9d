import { and, count, desc, eq, gt, lte, or, type SQL } from "drizzle-orm";
import { db } from "@/db/client";
import { memberships } from "@/db/schema";
import { toPublicId } from "@/lib/ids";
import { pageMeta, pageOf } from "@/lib/http/pagination";
import { iso } from "./common-schemas";
import type { ListMembershipsQuery, Membership, MembershipStatus } from "./membership-schemas";

type MembershipRow = typeof memberships.$inferSelect;

/**
 * The status a reader sees: a stored `active` membership whose end has passed is `expired`. Derived at
 * read time, so nothing has to run at the moment a membership ends for reads and filters to be right.
 */
function effectiveStatus(row: MembershipRow, now: Date): MembershipStatus {
  return row.status === "active" && row.endsAt <= now ? "expired" : row.status;
}

/** The SQL twin of effectiveStatus, for the status filter. */
function statusIs(status: MembershipStatus, now: Date): SQL | undefined {
  const lapsed = and(eq(memberships.status, "active"), lte(memberships.endsAt, now));
  if (status === "active") return and(eq(memberships.status, "active"), gt(memberships.endsAt, now));
  if (status === "expired") return or(eq(memberships.status, "expired"), lapsed);
  return eq(memberships.status, status);
}

export function serializeMembership(row: MembershipRow, now = new Date()): Membership {
  return {
    id: toPublicId("membership", row.id),
    customer: { email: row.customerEmail, name: row.customerName },
    plan: row.plan,
    status: effectiveStatus(row, now),
    starts_at: iso(row.startsAt),
    ends_at: iso(row.endsAt),
    created_at: iso(row.createdAt),
  };
}

export async function listMemberships(organizationId: string, query: ListMembershipsQuery) {
  const now = new Date();
  const where = and(eq(memberships.organizationId, organizationId), query.status ? statusIs(query.status, now) : undefined);
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
  return { data: rows.map((row) => serializeMembership(row, now)), meta: pageMeta(query, total?.value ?? 0) };
}
