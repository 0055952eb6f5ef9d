import fc from "fast-check";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, rowsOf } from "@/db/client";
import { orders } from "@/db/schema";
import { transactionsQuerySchema } from "@/lib/orders/order-schemas";
import { searchTransactions } from "@/lib/orders/transactions-search";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";
import { bound, orderTimes } from "../support/date-bounds";
import { insertCatalog, insertOrders } from "../support/order-fixtures";

describe("date-filtered transaction counts from order_daily_counts", () => {
  useTestDatabase();

  /** What the search reports, beside a plain count(*) over the same created_at bounds. */
  async function counts(organizationId: string, dateFrom: string | undefined, dateTo: string | undefined) {
    const query = transactionsQuerySchema.parse({ size: "1", date_from: dateFrom, date_to: dateTo });
    const { total_count } = await searchTransactions(organizationId, query);
    const lo = query.date_from ? sql`${orders.createdAt} >= ${query.date_from.text}::timestamptz` : sql`true`;
    const hi = !query.date_to
      ? sql`true`
      : query.date_to.wholeDay
        ? sql`${orders.createdAt} < ${query.date_to.text}::timestamptz + interval '1 day'`
        : sql`${orders.createdAt} <= ${query.date_to.text}::timestamptz`;
    const [row] = rowsOf<{ n: number | string }>(
      await db.execute(sql`select count(*) as n from ${orders} where ${orders.organizationId} = ${organizationId} and ${lo} and ${hi}`),
    );
    return { reported: total_count, exact: Number(row!.n) };
  }

  it("equals count(*) for any bounds, including bounds on and around midnight, after inserts and deletes", async () => {
    const measured = await createTenant();
    const other = await createTenant();
    for (const tenant of [measured, other]) {
      const catalog = await insertCatalog(tenant.organization.id);
      await insertOrders(
        tenant.organization.id,
        catalog.event,
        catalog.tickets[0]!.row,
        orderTimes().map((createdAt) => ({ createdAt })),
      );
    }
    // Deleting rows must take them out of their days' counts too.
    await db.execute(
      sql`delete from ${orders} where ${orders.organizationId} = ${measured.organization.id} and extract(hour from ${orders.createdAt} at time zone 'UTC') = 1`,
    );

    await fc.assert(
      fc.asyncProperty(fc.option(bound, { nil: undefined }), fc.option(bound, { nil: undefined }), async (dateFrom, dateTo) => {
        fc.pre(transactionsQuerySchema.safeParse({ date_from: dateFrom, date_to: dateTo }).success);
        const { reported, exact } = await counts(measured.organization.id, dateFrom, dateTo);
        expect(reported).toBe(exact);
      }),
      { numRuns: 150 },
    );
    // The generator reaches both kinds of range: within one day and across whole days.
    expect((await counts(measured.organization.id, "2026-03-03T00:00:00Z", "2026-03-03T23:59:59.999Z")).exact).toBe(5);
    expect(await counts(measured.organization.id, "2026-03-02", "2026-03-05")).toEqual({ reported: 20, exact: 20 });
  });

  it("refuses to move an order to another time, which would leave the day counts wrong", async () => {
    const tenant = await createTenant();
    const catalog = await insertCatalog(tenant.organization.id);
    const [order] = await insertOrders(tenant.organization.id, catalog.event, catalog.tickets[0]!.row, [{}]);
    const failure = await db
      .execute(sql`update ${orders} set created_at = created_at - interval '2 days' where id = ${order!.id}`)
      .then(() => undefined, (error: unknown) => error as Error & { cause?: Error });
    expect(failure?.cause?.message).toMatch(/created_at cannot change/);
  });
});
