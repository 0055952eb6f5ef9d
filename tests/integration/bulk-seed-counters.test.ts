import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { orders } from "@/db/schema";
import { bulkSeedOrders } from "@/lib/demo/bulk-seed";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";
import { insertRandomSales } from "../support/sales-fixtures";
import { COUNTER_TABLES, exactCounts, keptCounts } from "../support/trigger-counters";

async function expectExact(step: string) {
  for (const table of COUNTER_TABLES) expect(await keptCounts(table), `${table} ${step}`).toEqual(await exactCounts(table));
}

describe("bulkSeedOrders and the trigger-kept counters", () => {
  useTestDatabase();

  it("counts bulk-seeded orders in every counter table exactly as orders inserted one by one", async () => {
    const measured = await createTenant();
    const other = await createTenant();
    const now = new Date("2026-06-30T12:00:00Z");
    // Orders already on some of the seeded days, so the seed adds to existing counter rows as well as creating them.
    await insertRandomSales(measured.organization.id, { seed: 7, count: 60, start: new Date("2026-05-01T00:00:00Z"), days: 40 });

    // Several chunks, each one statement inserting orders and their items; the other organization has no catalog yet.
    await bulkSeedOrders(measured.organization.id, 1_300, { chunkSize: 500, now });
    await bulkSeedOrders(other.organization.id, 400, { chunkSize: 150, now });
    await expectExact("after the seed");

    // The seeded orders stay countable afterwards: refunds move them, deletes take them out.
    await db.execute(sql`update ${orders} set status = 'refunded' where status = 'completed' and order_number % 7 = 0`);
    await db.execute(sql`delete from ${orders} where organization_id = ${measured.organization.id} and order_number % 11 = 0`);
    await expectExact("after refunds and deletes");
  });
});
