import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, rowsOf } from "@/db/client";
import { apiKeys, organizations } from "@/db/schema";
import { authenticateApiKey, demoApiKey } from "@/lib/auth/api-keys";
import { checkCredentials } from "@/lib/auth/users";
import { seedDemoData } from "@/lib/demo/seed-demo";
import { bulkSeedOrders } from "@/lib/demo/bulk-seed";
import { reserveOrderNumbers } from "@/lib/orders/order-numbers";
import { useTestDatabase } from "../support/database";

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  return rowsOf<T>(await db.execute(query))[0]!;
}

describe("demo data", () => {
  useTestDatabase();

  it("creates a year of realistic sales once, and only re-checks the demo key afterwards", async () => {
    const first = await seedDemoData();
    expect(first.created).toBe(true);
    expect(first.apiKey).toBe(demoApiKey());

    const org = await one<{ name: string; currency: string; next_number: number }>(
      sql`select name, currency, next_order_number(id) as next_number from organizations where id = ${first.organizationId}`,
    );
    expect(org).toMatchObject({ name: "Demo Events AB", currency: "SEK" });

    const stats = await one<Record<string, number | string>>(sql`
      select count(*)::int as orders,
             count(*) filter (where status = 'completed')::int as completed,
             count(*) filter (where status = 'refunded')::int as refunded,
             count(*) filter (where customer_phone is null)::int as without_phone,
             count(distinct date_trunc('month', created_at))::int as months,
             extract(epoch from now() - min(created_at))::int / 86400 as oldest_days,
             extract(epoch from now() - max(created_at))::int / 86400 as newest_days,
             count(distinct payment_method || '/' || payment_method_brand)::int as payment_kinds,
             count(distinct order_source)::int as sources,
             count(distinct order_number)::int as numbers,
             max(order_number) as max_number
      from orders where organization_id = ${first.organizationId}`);
    expect(stats.orders).toBeGreaterThanOrEqual(2000);
    expect(Number(stats.completed) / Number(stats.orders)).toBeGreaterThan(0.85);
    expect(stats.refunded).toBeGreaterThan(0);
    expect(stats.without_phone).toBeGreaterThan(0);
    expect(stats.months).toBeGreaterThanOrEqual(12);
    expect(stats.oldest_days).toBeGreaterThanOrEqual(330);
    expect(stats.oldest_days).toBeLessThanOrEqual(366);
    expect(stats.newest_days).toBeLessThan(10);
    expect(stats).toMatchObject({ payment_kinds: 4, sources: 3, numbers: stats.orders, max_number: org.next_number - 1 });

    // Seats held equal the tickets of completed orders; refunded ones were released.
    const mismatched = rowsOf(
      await db.execute(sql`
        select t.id from ticket_types t
        where t.organization_id = ${first.organizationId}
          and t.quantity_sold <> (select coalesce(sum(i.quantity), 0) from order_items i
                                  join orders o on o.id = i.order_id
                                  where i.ticket_type_id = t.id and o.status = 'completed')`),
    );
    expect(mismatched).toEqual([]);

    const pricing = await one<Record<string, number>>(sql`
      select count(*) filter (where o.original_price - o.total_price <> coalesce(c.discount, 0))::int as bad_discount,
             count(*) filter (where o.original_price <> i.gross)::int as bad_original,
             count(*) filter (where c.discount > 0)::int as discounted
      from orders o
      join (select order_id, sum(quantity * unit_price) as gross from order_items group by 1) i on i.order_id = o.id
      left join (select order_id, sum(discount_amount) as discount from order_campaigns group by 1) c on c.order_id = o.id
      where o.organization_id = ${first.organizationId}`);
    expect(pricing).toMatchObject({ bad_discount: 0, bad_original: 0 });
    expect(pricing.discounted).toBeGreaterThan(0);

    const catalog = await one<Record<string, number>>(sql`
      select (select count(*)::int from venues where organization_id = ${first.organizationId}) as venues,
             (select count(*)::int from events where organization_id = ${first.organizationId} and status = 'published') as published,
             (select count(*)::int from events where organization_id = ${first.organizationId} and starts_at > now()) as upcoming,
             (select count(*)::int from campaigns where organization_id = ${first.organizationId}) as campaigns,
             (select count(distinct status)::int from memberships where organization_id = ${first.organizationId}) as membership_statuses,
             (select count(*)::int from memberships where organization_id = ${first.organizationId}) as memberships,
             (select count(*)::int from webhook_deliveries) as deliveries`);
    expect(catalog.venues).toBeGreaterThanOrEqual(3);
    expect(catalog.published).toBeGreaterThanOrEqual(6);
    expect(catalog.upcoming).toBeGreaterThan(0);
    expect(catalog.campaigns).toBeGreaterThan(0);
    expect(catalog).toMatchObject({ membership_statuses: 3, memberships: 50, deliveries: 0 });

    expect(await authenticateApiKey(first.apiKey)).toMatchObject({ organizationId: first.organizationId, scopes: ["*"] });
    expect(await checkCredentials(first.login.email, first.login.password)).toMatchObject({
      organizationId: first.organizationId,
    });

    const second = await seedDemoData();
    expect(second).toEqual({ ...first, created: false });
    const after = await one<{ orgs: number; orders: number }>(
      sql`select (select count(*)::int from organizations) as orgs, (select count(*)::int from orders) as orders`,
    );
    expect(after).toEqual({ orgs: 1, orders: stats.orders });
  });

  it("re-aligns the stored demo key when AUTH_SECRET changed since seeding", async () => {
    const demo = await seedDemoData();
    await db.update(apiKeys).set({ keyHash: "0".repeat(64) }).where(eq(apiKeys.organizationId, demo.organizationId));
    expect(await authenticateApiKey(demo.apiKey)).toBeNull();

    expect((await seedDemoData()).created).toBe(false);
    expect(await authenticateApiKey(demo.apiKey)).toMatchObject({ organizationId: demo.organizationId });
    const keys = await db.select().from(apiKeys).where(eq(apiKeys.organizationId, demo.organizationId));
    expect(keys).toHaveLength(1);
  });

  it("bulk-seeds orders for an organization without a catalog, numbering after existing orders", async () => {
    const [org] = await db.insert(organizations).values({ name: "Bulk AB", currency: "NOK" }).returning();
    expect(await reserveOrderNumbers(db, org!.id, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const result = await bulkSeedOrders(org!.id, 1_000, { chunkSize: 300 });
    expect(result).toEqual({ inserted: 1_000, firstOrderNumber: 8, lastOrderNumber: 1_007 });

    const stats = await one<Record<string, number>>(sql`
      select count(*)::int as orders,
             count(distinct order_number)::int as numbers,
             min(order_number) as first, max(order_number) as last,
             count(*) filter (where status = 'refunded')::int as refunded,
             count(distinct customer_name)::int as names,
             count(distinct total_price)::int as prices,
             count(*) filter (where currency <> 'NOK')::int as wrong_currency,
             count(distinct date_trunc('month', created_at))::int as months
      from orders where organization_id = ${org!.id}`);
    expect(stats).toMatchObject({ orders: 1_000, numbers: 1_000, first: 8, last: 1_007, wrong_currency: 0 });
    expect(stats.refunded).toBeGreaterThan(0);
    expect(stats.names).toBeGreaterThan(300);
    expect(stats.prices).toBeGreaterThan(50);
    expect(stats.months).toBeGreaterThanOrEqual(12);

    const sold = await one<{ mismatched: number; items: number }>(sql`
      select (select count(*)::int from order_items i join orders o on o.id = i.order_id where o.organization_id = ${org!.id}) as items,
             (select count(*)::int from ticket_types t where t.organization_id = ${org!.id}
                and t.quantity_sold <> (select coalesce(sum(i.quantity), 0) from order_items i join orders o on o.id = i.order_id
                                        where i.ticket_type_id = t.id and o.status = 'completed')) as mismatched`);
    expect(sold).toEqual({ items: 1_000, mismatched: 0 });
  });

  it("leaves the bulk-seeded tables vacuumed and analysed, so index-only scans need no heap visits", async () => {
    const [org] = await db.insert(organizations).values({ name: "Vacuumed AB", currency: "SEK" }).returning();
    await bulkSeedOrders(org!.id, 500);
    // VACUUM fills the visibility map (relallvisible); ANALYZE alone, or nothing, leaves it at 0 after a load.
    const rows = rowsOf<{ relname: string; relallvisible: number; relpages: number }>(
      await db.execute(sql`select relname, relallvisible, relpages from pg_class where relname in ('orders', 'order_items')`),
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(Number(row.relpages)).toBeGreaterThan(0);
      expect(Number(row.relallvisible)).toBe(Number(row.relpages));
    }
  });
});
