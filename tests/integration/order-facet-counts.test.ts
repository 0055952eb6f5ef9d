import fc from "fast-check";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { orders } from "@/db/schema";
import { toPublicId } from "@/lib/ids";
import { transactionsQuerySchema } from "@/lib/orders/order-schemas";
import { searchTransactions } from "@/lib/orders/transactions-search";
import { bound, orderTimes } from "../support/date-bounds";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";
import { insertCatalog, insertOrders } from "../support/order-fixtures";

describe("filtered transaction counts from the daily tables (order_daily_facet_counts, order_daily_sales)", () => {
  useTestDatabase();

  it("equal count(*) for any event, refund state, channel, payment method and bounds, after inserts, refunds, event, channel and method changes and deletes", async () => {
    const measured = await createTenant();
    const other = await createTenant();
    const events: string[] = [];
    for (const tenant of [measured, measured, other]) {
      const catalog = await insertCatalog(tenant.organization.id);
      if (tenant === measured) events.push(catalog.event.id);
      await insertOrders(
        tenant.organization.id,
        catalog.event,
        catalog.tickets[0]!.row,
        orderTimes().map((createdAt, i) => ({ createdAt, status: i % 5 === 0 ? "refunded" : "completed" })),
      );
    }
    const mine = eq(orders.organizationId, measured.organization.id);
    // Refunds and a move to another event shift counts between rows; deletes take them out.
    await db.update(orders).set({ status: "refunded" }).where(and(mine, sql`extract(hour from ${orders.createdAt} at time zone 'UTC') = 12`));
    await db.update(orders).set({ status: "completed" }).where(and(mine, sql`${orders.orderNumber} % 7 = 0`));
    await db
      .update(orders)
      .set({ eventId: events[1]! })
      .where(and(mine, sql`${orders.orderNumber} % 4 = 0`));
    await db
      .update(orders)
      .set({ orderSource: "box_office" })
      .where(and(mine, sql`${orders.orderNumber} % 3 = 0`));
    await db
      .update(orders)
      .set({ paymentMethod: "swish" })
      .where(and(mine, sql`${orders.orderNumber} % 5 = 1`));
    await db.delete(orders).where(and(mine, sql`extract(hour from ${orders.createdAt} at time zone 'UTC') = 1`));

    const filters = fc.record(
      {
        date_from: bound,
        date_to: bound,
        event_id: fc.constantFrom(...events.map((id) => toPublicId("event", id))),
        is_refunded: fc.constantFrom("true", "false"),
        order_source: fc.constantFrom("web", "box_office", "app"),
        payment_method: fc.constantFrom("card", "swish", "invoice"),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(filters, async (input) => {
        const parsed = transactionsQuerySchema.safeParse({ ...input, size: "1" });
        fc.pre(parsed.success && Object.keys(input).some((name) => name !== "date_from" && name !== "date_to"));
        const query = parsed.data!;
        const { total_count } = await searchTransactions(measured.organization.id, query);
        const everything = await searchTransactions(measured.organization.id, { ...query, size: 1000 });
        // The same filters without the counters: every matching row, listed.
        expect(total_count).toBe(everything.orders.length);
        expect(total_count).toBe(await countRows(measured.organization.id, query));
      }),
      { numRuns: 150 },
    );
  });
});

/** count(*) over the same filters, written independently of the search. */
async function countRows(organizationId: string, query: ReturnType<typeof transactionsQuerySchema.parse>): Promise<number> {
  const conditions = [eq(orders.organizationId, organizationId)];
  if (query.date_from) conditions.push(sql`${orders.createdAt} >= ${query.date_from.text}::timestamptz`);
  if (query.date_to) {
    conditions.push(
      query.date_to.wholeDay
        ? sql`${orders.createdAt} < ${query.date_to.text}::timestamptz + interval '1 day'`
        : sql`${orders.createdAt} <= ${query.date_to.text}::timestamptz`,
    );
  }
  if (query.event_id) conditions.push(eq(orders.eventId, query.event_id));
  if (query.is_refunded !== undefined) conditions.push(eq(orders.isRefunded, query.is_refunded));
  if (query.order_source) conditions.push(eq(orders.orderSource, query.order_source));
  if (query.payment_method) conditions.push(eq(orders.paymentMethod, query.payment_method));
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(orders).where(and(...conditions));
  return row!.n;
}
