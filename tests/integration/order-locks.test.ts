import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { countOrders } from "@/lib/orders/orders";
import { createOrder } from "@/lib/orders/create-order";
import { createOrderBodySchema } from "@/lib/orders/order-schemas";
import { createOrganization } from "@/lib/organizations/organizations";
import { usePostgresDatabasePerTest } from "../support/database";
import { insertCatalog, oneTicketOrderBody } from "../support/order-fixtures";

const COUNTER_SLOTS = 32;
const WAIT_LIMIT_MS = 5_000;

/*
 * Two connections to PostgreSQL (always: PGlite runs one statement at a time, so it cannot show a wait).
 * An on-sale is many buyers of one organization at once; none of their order transactions may lock a row
 * that every order of the organization needs (its order number, its order counters) until commit.
 */
describe("order transactions of one organization", () => {
  const database = usePostgresDatabasePerTest();

  it("do not wait for each other: one holds its transaction open after writing its order, the other commits", async () => {
    const organization = await createOrganization({ name: "On-sale AB", currency: "SEK" });
    const catalog = await insertCatalog(organization.id, { tickets: [{ quantityTotal: 10 }] });
    const body = createOrderBodySchema.parse(oneTicketOrderBody(catalog));
    const first = await createOrder(organization.id, body);

    // The held transaction's counter slot (db/sql/order-counter-slot.sql) is one no app connection has, as
    // with the pool's connections of a real server (a shared slot makes two connections take turns).
    const held = await connectionWithOwnSlot(database.url());
    try {
      const event = catalog.event;
      const ticket = catalog.tickets[0]!.row;
      await held`begin`;
      const [order] = await held`insert into orders (organization_id, event_id, order_number, status, customer_email,
          customer_name, payment_method, payment_method_brand, order_source, currency, original_price, total_price)
        values (${organization.id}, ${event.id}, next_order_number(${organization.id}), 'completed', 'held@example.test',
          'Held Buyer', 'card', 'visa', 'web', 'SEK', ${ticket.price}, ${ticket.price})
        returning id, order_number`;
      await held`insert into order_items (order_id, ticket_type_id, name, category, quantity, unit_price, vat_percent, event_id, event_name)
        values (${order!.id}, ${ticket.id}, ${ticket.name}, ${ticket.category}, 1, ${ticket.price}, ${ticket.vatPercent}, ${event.id}, ${event.name})`;

      const second = await Promise.race([
        createOrder(organization.id, body),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`createOrder waited ${WAIT_LIMIT_MS} ms for the held transaction`)), WAIT_LIMIT_MS)),
      ]);
      expect([first.order_number, order!.order_number, second.order_number]).toEqual([1, 2, 3]);
      expect(await countOrders(organization.id, [])).toBe(2);
    } finally {
      await held`rollback`.catch(() => {});
      await held.end({ timeout: 5 });
    }
    // The rolled-back order leaves a gap in the numbers and nothing in the counts.
    const third = await createOrder(organization.id, body);
    expect(third.order_number).toBe(4);
    expect(await countOrders(organization.id, [])).toBe(3);
  });
});

/** A connection of its own whose counter slot no other connection to the database shares. */
async function connectionWithOwnSlot(url: string): Promise<postgres.Sql> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const connection = postgres(url, { max: 1, onnotice: () => {} });
    const [row] = await connection<{ shared: boolean }[]>`
      select exists (
        select 1 from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and pid % ${COUNTER_SLOTS} = pg_backend_pid() % ${COUNTER_SLOTS}
      ) as shared`;
    if (!row!.shared) return connection;
    await connection.end({ timeout: 5 });
  }
  throw new Error("no connection with a counter slot of its own in 50 attempts");
}
