import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { db, rowsOf } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { fromPublicId } from "@/lib/ids";
import { countOrders } from "@/lib/orders/orders";
import { createOrder } from "@/lib/orders/create-order";
import { createOrderBodySchema } from "@/lib/orders/order-schemas";
import { createOrganization } from "@/lib/organizations/organizations";
import { createIntegration } from "@/lib/webhooks/integrations";
import { usePostgresDatabasePerTest } from "../support/database";
import { insertCatalog, oneTicketOrderBody } from "../support/order-fixtures";
import { useReceivers } from "../support/receiver";

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

/*
 * The order's checks read its event without a lock; place_order then holds the event FOR SHARE and checks it again.
 * Here a connection holds the event FOR UPDATE (as a cancel does) while the order waits in place_order, so whatever
 * it changes meanwhile lands between the checks and the writes.
 */
describe("an order whose event or integrations change after its checks", () => {
  const database = usePostgresDatabasePerTest();
  const receiver = useReceivers();

  async function whileOrderWaits<T>(change: (holder: postgres.Sql) => Promise<unknown>, order: () => Promise<T>): Promise<T | unknown> {
    const holder = postgres(database.url(), { max: 1, onnotice: () => {} });
    try {
      const event = await db.query.events.findFirst();
      await holder`begin`;
      await holder`select 1 from events where id = ${event!.id} for update`;
      const ordering = order().catch((error: unknown) => error);
      const deadline = Date.now() + WAIT_LIMIT_MS;
      for (;;) {
        // Not on the holder's connection: inside a transaction pg_stat_activity keeps showing its first reading.
        const [row] = rowsOf<{ waiting: number }>(
          await db.execute(sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`),
        );
        if (row!.waiting > 0) break;
        if (Date.now() > deadline) throw new Error("the order never waited for the event's lock");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await change(holder);
      await holder`commit`;
      return await ordering;
    } finally {
      await holder.end({ timeout: 5 });
    }
  }

  it("refuses it with 409 when the event was cancelled meanwhile, writing nothing", async () => {
    const organization = await createOrganization({ name: "Cancelled AB", currency: "SEK" });
    const catalog = await insertCatalog(organization.id);
    const refused = await whileOrderWaits(
      (holder) => holder`update events set status = 'cancelled' where id = ${catalog.event.id}`,
      () => createOrder(organization.id, createOrderBodySchema.parse(oneTicketOrderBody(catalog))),
    );
    expect(refused).toMatchObject({ status: 409, message: "Event is cancelled; orders can only be placed for published events" });
    expect(await countOrders(organization.id, [])).toBe(0);
  });

  it("records its webhook for an integration subscribed meanwhile, though its checks found none", async () => {
    const organization = await createOrganization({ name: "Subscribed AB", currency: "SEK" });
    const catalog = await insertCatalog(organization.id);
    const server = await receiver(() => ({ status: 200, body: "ok" }));
    let integrationId = "";
    const order = await whileOrderWaits(
      async () => (integrationId = (await createIntegration({ organizationId: organization.id, url: server.url })).id),
      () => createOrder(organization.id, createOrderBodySchema.parse(oneTicketOrderBody(catalog))),
    );
    expect(order).toMatchObject({ status: "completed" });
    const deliveries = await db
      .select({ integrationId: webhookDeliveries.integrationId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.orderId, fromPublicId("order", (order as { id: string }).id)!));
    expect(deliveries).toEqual([{ integrationId: fromPublicId("integration", integrationId) }]);
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
