import { sql } from "drizzle-orm";
import { rowsOf, type Queryable } from "@/db/client";

/**
 * `count` order numbers from the organization's sequence (db/sql/next-order-number.sql), ascending, for
 * writers that insert orders themselves (demo data, fixtures). Contiguous unless orders are placed meanwhile.
 */
export async function reserveOrderNumbers(q: Queryable, organizationId: string, count: number): Promise<number[]> {
  const rows = rowsOf<{ n: number }>(
    await q.execute(sql`select next_order_number(${organizationId}::uuid) as n from generate_series(1, ${count}::int)`),
  );
  return rows.map((row) => Number(row.n)).sort((a, b) => a - b);
}
