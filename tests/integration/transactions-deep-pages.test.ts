import { and, asc, desc, eq, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, rowsOf } from "@/db/client";
import { orders } from "@/db/schema";
import { bulkSeedOrders } from "@/lib/demo/bulk-seed";
import { toPublicId } from "@/lib/ids";
import { transactionsQuerySchema } from "@/lib/orders/order-schemas";
import { searchTransactions } from "@/lib/orders/transactions-search";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";

// Past 1,000, a page in date order starts from its day (the per-day counters), and in the other sorts in the second
// half it is read from the end in the reverse order (searchTransactions).
const ORDERS = 2_300;
const DAY_MS = 24 * 60 * 60 * 1000;

type Sort = "date" | "price" | "customer_name";

describe("transactions search: deep pages from the day counters and from the end", () => {
  useTestDatabase();
  let organizationId: string;

  /** The page by plain SQL, written independently of the search: offset over the ordering, key then uuid. */
  async function expectedPage(sort: Sort, order: "asc" | "desc", from: number, size: number, filter?: SQL) {
    const key = { date: orders.createdAt, price: orders.totalPrice, customer_name: sql`lower(${orders.customerName})` }[sort];
    const direction = order === "asc" ? asc : desc;
    const rows = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.organizationId, organizationId), filter))
      .orderBy(direction(key), direction(orders.id))
      .limit(size)
      .offset(from);
    return rows.map((row) => row.id);
  }

  /** The search's page of 25 at `from` is expectedPage's, with the exact count and a next cursor unless it is the last. */
  async function expectPageAt(params: Record<string, string>, filter: SQL | undefined, total: number, sort: Sort, order: "asc" | "desc", from: number) {
    const label = `${JSON.stringify(params)} ${sort} ${order} from ${from}`;
    const page = await searchTransactions(organizationId, transactionsQuerySchema.parse({ ...params, sort, order, size: "25", from: String(from) }));
    expect(page.total_count, label).toBe(total);
    expect(
      page.orders.map((o) => o.uuid),
      label,
    ).toEqual(await expectedPage(sort, order, from, 25, filter));
    expect(page.next_cursor !== undefined, label).toBe(from + 25 < total);
  }

  it("gives the same orders, count and next cursor as the offset in the query's ordering, every sort, order and filter", async () => {
    organizationId = (await createTenant()).organization.id;
    await bulkSeedOrders(organizationId, ORDERS);
    // Another organization's orders interleave in every index.
    await bulkSeedOrders((await createTenant()).organization.id, 300);
    const [notRefunded] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(orders)
      .where(and(eq(orders.organizationId, organizationId), eq(orders.isRefunded, false)));
    const filters: { params: Record<string, string>; filter?: SQL; total: number }[] = [
      { params: {}, filter: undefined, total: ORDERS },
      { params: { is_refunded: "false" }, filter: eq(orders.isRefunded, false), total: notRefunded!.n },
    ];
    for (const { params, filter, total } of filters) {
      for (const sort of ["date", "price", "customer_name"] as const) {
        for (const order of ["asc", "desc"] as const) {
          for (const from of [1_000, Math.floor(total / 2) + 1, total - 26, total - 25, total - 3, total - 1, total, total + 40]) {
            await expectPageAt(params, filter, total, sort, order, from);
          }
        }
      }
    }
  });

  it("places date-ordered pages by the day counters under date bounds, events, refund state and channels", async () => {
    organizationId = (await createTenant()).organization.id;
    await bulkSeedOrders(organizationId, ORDERS);
    await bulkSeedOrders((await createTenant()).organization.id, 300);
    const [common] = rowsOf<{ event_id: string; order_source: string }>(
      await db.execute(sql`select event_id, order_source from orders where organization_id = ${organizationId}
        group by event_id, order_source order by count(*) desc limit 1`),
    );
    const [span] = rowsOf<{ lo: string; hi: string }>(
      await db.execute(sql`select min(created_at)::text as lo, max(created_at)::text as hi from orders where organization_id = ${organizationId}`),
    );
    const lo = new Date(span!.lo).getTime();
    const hi = new Date(span!.hi).getTime();
    // Bounds inside a day (the partial days are counted row by row), and bare dates (whole days).
    const from = new Date(lo + 0.1 * (hi - lo) + 13 * 60 * 60 * 1000 + 37_123).toISOString();
    const to = new Date(hi - 0.05 * (hi - lo) - 5 * 60 * 60 * 1000 - 1_456).toISOString();
    const fromDay = from.slice(0, 10);
    const toDay = to.slice(0, 10);
    const cases: { params: Record<string, string>; filter?: SQL }[] = [
      { params: { date_from: from, date_to: to }, filter: and(gte(orders.createdAt, new Date(from)), lte(orders.createdAt, new Date(to))) },
      {
        params: { date_from: fromDay, date_to: toDay },
        filter: and(gte(orders.createdAt, new Date(fromDay)), lt(orders.createdAt, new Date(Date.parse(toDay) + DAY_MS))),
      },
      { params: { date_to: to }, filter: lte(orders.createdAt, new Date(to)) },
      { params: { date_from: from }, filter: gte(orders.createdAt, new Date(from)) },
      { params: { event_id: toPublicId("event", common!.event_id) }, filter: eq(orders.eventId, common!.event_id) },
      {
        params: { date_from: from, is_refunded: "false", order_source: common!.order_source },
        filter: and(gte(orders.createdAt, new Date(from)), eq(orders.isRefunded, false), eq(orders.orderSource, common!.order_source)),
      },
    ];
    for (const { params, filter } of cases) {
      const [counted] = await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(orders)
        .where(and(eq(orders.organizationId, organizationId), filter));
      const total = counted!.n;
      expect(total, JSON.stringify(params)).toBeGreaterThan(1_100);
      for (const order of ["asc", "desc"] as const) {
        for (const from of [1_000, 1_001, Math.floor(total / 2), total - 26, total - 25, total - 1, total, total + 40]) {
          await expectPageAt(params, filter, total, "date", order, from);
        }
      }
    }
  });

  it("order_date_page_start: the orders before its bound are the offset, and at most about a day's are left to skip", async () => {
    organizationId = (await createTenant()).organization.id;
    await bulkSeedOrders(organizationId, 1_500);
    const [span] = rowsOf<{ lo: string; hi: string; busiest: number }>(
      await db.execute(sql`select min(created_at)::text as lo, max(created_at)::text as hi,
        (select max(n) from (select count(*) as n from orders where organization_id = ${organizationId}
          group by (created_at at time zone 'UTC')::date) d)::int as busiest
        from orders where organization_id = ${organizationId}`),
    );
    const lo = new Date(new Date(span!.lo).getTime() + 3 * DAY_MS + 9 * 60 * 60 * 1000).toISOString();
    const hi = new Date(new Date(span!.hi).getTime() - 2 * DAY_MS - 7 * 60 * 60 * 1000).toISOString();
    const boundsCases = [
      { lo, hi, inclusive: true },
      { lo, hi, inclusive: false },
      { lo: null, hi: null, inclusive: false },
    ];
    for (const bounds of boundsCases) {
      const arguments_ = sql`${organizationId}::uuid, ${bounds.lo}::timestamptz, ${bounds.hi}::timestamptz, ${bounds.inclusive}::boolean,
        null::uuid, null::boolean, null::text, null::text`;
      const inBounds = and(
        bounds.lo === null ? undefined : gte(orders.createdAt, new Date(bounds.lo)),
        bounds.hi === null ? undefined : bounds.inclusive ? lte(orders.createdAt, new Date(bounds.hi)) : lt(orders.createdAt, new Date(bounds.hi)),
      );
      const [counted] = rowsOf<{ n: number }>(await db.execute(sql`select count_orders_matching(${arguments_})::int as n`));
      const total = counted!.n;
      for (const descending of [true, false]) {
        // Every skip through the first days, where the partial day the ordering starts in is counted row by row.
        for (const skip of [...Array(60).keys(), 500, 900, total - 1, total, total + 5]) {
          const label = `${JSON.stringify(bounds)} ${descending ? "desc" : "asc"} skip ${skip}`;
          const [start] = rowsOf<{ bound: string; remaining: number }>(
            await db.execute(sql`select bound::text as bound, remaining::int as remaining
              from order_date_page_start(${arguments_}, ${descending}::boolean, ${skip}::bigint)`),
          );
          // The orders in the bounds that the page's scan, starting at the bound, never sees: they precede the page.
          const [passedOver] = rowsOf<{ n: number }>(
            await db.execute(sql`select count(*)::int as n from ${orders} where ${and(
              eq(orders.organizationId, organizationId),
              inBounds,
              descending ? sql`${orders.createdAt} >= ${start!.bound}::timestamptz` : sql`${orders.createdAt} < ${start!.bound}::timestamptz`,
            )}`),
          );
          expect(start!.remaining, label).toBeGreaterThanOrEqual(0);
          expect(skip - start!.remaining, label).toBe(passedOver!.n);
          if (skip < total) expect(start!.remaining, label).toBeLessThan(2 * span!.busiest);
          expect(/^-?infinity$| 00:00:00\+00$/.test(start!.bound), label).toBe(true);
        }
      }
    }
  });
});
