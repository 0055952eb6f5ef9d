import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { orders } from "@/db/schema";
import { bulkSeedOrders } from "@/lib/demo/bulk-seed";
import { transactionsQuerySchema } from "@/lib/orders/order-schemas";
import { searchTransactions } from "@/lib/orders/transactions-search";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";

// Past 1,000 and in the second half, a page is read from the end in the reverse order (searchTransactions).
const ORDERS = 2_300;

describe("transactions search: deep pages read from the end", () => {
  useTestDatabase();
  let organizationId: string;

  /** The page by plain SQL, written independently of the search: offset over the ordering, key then uuid. */
  async function expectedPage(sort: "date" | "price" | "customer_name", order: "asc" | "desc", from: number, size: number, filter?: SQL) {
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

  it("gives the same orders, count and next cursor as the offset in the query's ordering, every sort, order and filter", async () => {
    organizationId = (await createTenant()).organization.id;
    await bulkSeedOrders(organizationId, ORDERS);
    // Another organization's orders interleave in every index.
    await bulkSeedOrders((await createTenant()).organization.id, 300);
    const [notRefunded] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(orders)
      .where(and(eq(orders.organizationId, organizationId), eq(orders.isRefunded, false)));
    const filters = [
      { params: {}, filter: undefined, total: ORDERS },
      { params: { is_refunded: "false" }, filter: eq(orders.isRefunded, false), total: notRefunded!.n },
    ];
    for (const { params, filter, total } of filters) {
      for (const sort of ["date", "price", "customer_name"] as const) {
        for (const order of ["asc", "desc"] as const) {
          for (const from of [1_000, Math.floor(total / 2) + 1, total - 26, total - 25, total - 3, total - 1, total, total + 40]) {
            const label = `${JSON.stringify(params)} ${sort} ${order} from ${from}`;
            const query = transactionsQuerySchema.parse({ ...params, sort, order, size: "25", from: String(from) });
            const page = await searchTransactions(organizationId, query);
            expect(page.total_count, label).toBe(total);
            expect(
              page.orders.map((o) => o.uuid),
              label,
            ).toEqual(await expectedPage(sort, order, from, 25, filter));
            expect(page.next_cursor !== undefined, label).toBe(from + 25 < total);
          }
        }
      }
    }
  });
});
