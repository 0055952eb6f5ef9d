import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, rowsOf } from "@/db/client";
import { orderItems, orders, organizations } from "@/db/schema";
import { migrationStatement, useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";
import { insertRandomSales } from "../support/sales-fixtures";
import { exactCounts, keptCounts } from "../support/trigger-counters";

const kept = () => keptCounts("order_daily_ticket_sales");

async function expectExact(step: string) {
  const want = await exactCounts("order_daily_ticket_sales");
  expect(await kept(), step).toEqual(want);
  return want;
}

const START = new Date("2026-01-05T00:00:00Z");

describe("order_daily_ticket_sales", () => {
  useTestDatabase();

  it("equals counting the cart items after every kind of write to orders and order_items", async () => {
    const measured = await createTenant();
    const other = await createTenant();
    const { rows, catalogs } = await insertRandomSales(measured.organization.id, { seed: 11, count: 120, start: START, days: 20 });
    await insertRandomSales(other.organization.id, { seed: 12, count: 40, start: START, days: 20 });
    expect((await expectExact("inserted")).length).toBeGreaterThan(20);

    // Items added to an order by a later statement: the order counts once more only under a type it did not hold.
    const held = await db.select().from(orderItems).where(eq(orderItems.orderId, rows[0]!.id));
    const stranger = catalogs.flatMap((catalog) => catalog.tickets).find((ticket) => held.every((item) => item.ticketTypeId !== ticket.row.id))!;
    const item = { ...held[0]!, id: undefined, quantity: 2 };
    await db.insert(orderItems).values([item, { ...item, ticketTypeId: stranger.row.id, unitPrice: 12_345, quantity: 1 }]);
    await expectExact("items added later");

    // A refund of many orders in one statement, and changes of event, channel and payment method.
    await db.execute(sql`update ${orders} set status = 'refunded' where id in (select id from ${orders} where status = 'completed' and organization_id = ${measured.organization.id} limit 30)`);
    await db.execute(sql`update ${orders} set order_source = 'kiosk', payment_method = 'cash' where order_number % 3 = 0`);
    await db.update(orders).set({ eventId: catalogs.find((catalog) => catalog.event.id !== rows[1]!.eventId)!.event.id }).where(eq(orders.id, rows[1]!.id));
    await db.update(orders).set({ customerName: "Renamed" }).where(eq(orders.id, rows[2]!.id));
    await expectExact("updated");

    // What is counted of an item never changes in place.
    const refused = await db
      .execute(sql`update ${orderItems} set unit_price = unit_price + 1 where order_id = ${rows[3]!.id}`)
      .then(() => undefined, (error: unknown) => error as Error & { cause?: Error });
    expect(refused?.cause?.message).toMatch(/changed only with their order/);

    await db.execute(sql`delete from ${orders} where organization_id = ${measured.organization.id} and order_number % 4 = 1`);
    await expectExact("orders deleted");
    // An organization goes after its orders (their events and ticket types are referenced until then), and
    // takes its slot rows, summing to zero by then, with it.
    await db.delete(orders).where(eq(orders.organizationId, other.organization.id));
    await db.delete(organizations).where(eq(organizations.id, other.organization.id));
    await expectExact("organization deleted");
    const left = rowsOf(await db.execute(sql`select 1 from order_daily_ticket_sales where organization_id = ${other.organization.id}`));
    expect(left).toEqual([]);

    await db.execute(sql`truncate ${orderItems}`);
    expect(await expectExact("items truncated")).toEqual([]);
  });

  it("is emptied with orders, and the migration's backfill gives the same rows as the triggers", async () => {
    const tenant = await createTenant();
    await insertRandomSales(tenant.organization.id, { seed: 5, count: 80, start: START, days: 10 });
    await db.execute(sql`update ${orders} set status = 'refunded' where order_number % 5 = 0`);
    const byTriggers = await expectExact("inserted and refunded");

    await db.execute(sql`delete from order_daily_ticket_sales`);
    await db.execute(sql.raw(migrationStatement("INSERT INTO order_daily_ticket_sales")));
    expect(await kept()).toEqual(byTriggers);

    await db.execute(sql`truncate ${orders} cascade`);
    expect(await kept()).toEqual([]);
  });
});
