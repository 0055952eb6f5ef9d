import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";
import { updateTicketType } from "@/lib/catalog/ticket-types";
import { updateTicketTypeSchema } from "@/lib/catalog/ticket-type-schemas";
import { ApiError } from "@/lib/http/errors";
import { fromPublicId } from "@/lib/ids";
import { createOrder } from "@/lib/orders/create-order";
import { createOrderBodySchema } from "@/lib/orders/order-schemas";
import { refundOrder } from "@/lib/orders/refunds";
import { createOrganization } from "@/lib/organizations/organizations";
import { usePostgresDatabasePerTest } from "../support/database";
import { insertCatalog } from "../support/order-fixtures";

const BUCKETS = 16;
const WAIT_LIMIT_MS = 5_000;

/*
 * A ticket type's unsold tickets live in BUCKETS stock rows (db/sql/take-tickets.sql); quantity_sold is
 * derived from them. On PostgreSQL (PGlite runs one statement at a time, so it shows neither a wait nor a race),
 * with the app's connection pool placing orders concurrently.
 */
describe("ticket stock buckets", () => {
  const database = usePostgresDatabasePerTest();

  async function onSale(quantityTotal: number) {
    const organization = await createOrganization({ name: "On-sale AB", currency: "SEK" });
    const catalog = await insertCatalog(organization.id, { tickets: [{ quantityTotal }] });
    const ticket = catalog.tickets[0]!;
    const order = (quantity: number, n: number) =>
      createOrder(
        organization.id,
        createOrderBodySchema.parse({
          event_id: catalog.eventId,
          customer: { email: `buyer${n}@example.test`, name: `Buyer ${n}` },
          items: [{ ticket_id: ticket.id, quantity }],
        }),
      );
    const stock = async () =>
      rowsOf<{ bucket: number; available: number }>(
        await db.execute(sql`select bucket, available from ticket_type_stock where ticket_type_id = ${ticket.row.id} order by bucket`),
      ).map((row) => row.available);
    const sold = async () =>
      rowsOf<{ sold: number; items: number }>(
        await db.execute(sql`select t.quantity_sold as sold,
            (select coalesce(sum(i.quantity), 0)::int from order_items i join orders o on o.id = i.order_id
             where i.ticket_type_id = t.id and o.status = 'completed') as items
          from ticket_types t where t.id = ${ticket.row.id}`),
      )[0]!;
    const edit = (quantity_total: number) =>
      updateTicketType(organization.id, catalog.eventId, ticket.id, updateTicketTypeSchema.parse({ quantity_total }));
    return { organization, ticket, order, stock, sold, edit };
  }

  /** Runs all, returns how many succeeded and that every failure was a 409 "Not enough tickets left". */
  async function settle(orders: Promise<unknown>[]) {
    const results = await Promise.allSettled(orders);
    const failures = results.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(ApiError);
      expect((failure as ApiError).code).toBe("conflict");
      expect((failure as ApiError).message).toMatch(/^Not enough tickets left/);
    }
    return results.length - failures.length;
  }

  it("spreads a new ticket type's tickets evenly over its buckets", async () => {
    const { stock, sold } = await onSale(BUCKETS * 10 + 3);
    expect(await stock()).toEqual(Array.from({ length: BUCKETS }, (_, bucket) => (bucket < 3 ? 11 : 10)));
    expect(await sold()).toEqual({ sold: 0, items: 0 });
  });

  it("never oversells under concurrent buyers and sells the last ticket exactly once", async () => {
    const { order, stock, sold } = await onSale(5);
    expect(await settle(Array.from({ length: 24 }, (_, n) => order(1, n)))).toBe(5);
    expect(await sold()).toEqual({ sold: 5, items: 5 });
    expect(await stock()).toEqual(Array(BUCKETS).fill(0));
    await expect(order(1, 99)).rejects.toMatchObject({ code: "conflict" });
  });

  it("sells out exactly, without an error, to 16 connections taking tickets at once", async () => {
    // Near the end every buyer's bucket runs short while others lock all buckets and re-spread them
    // (db/sql/take-tickets.sql: the fast path's subtransaction keeps that from deadlocking).
    const { ticket, stock, sold } = await onSale(150);
    const buyers = postgres(database.url(), { max: BUCKETS, onnotice: () => {} });
    try {
      let attempts = 0;
      let taken = 0;
      await Promise.all(
        Array.from({ length: BUCKETS }, async () => {
          while (attempts++ < 300) {
            await buyers.begin(async (tx) => {
              const [row] = await tx`select take_tickets(${`{${ticket.row.id}}`}::uuid[], '{1}'::int[]) as sold_out`;
              if (row!.sold_out === null) taken++;
            });
          }
        }),
      );
      expect(taken).toBe(150);
    } finally {
      await buyers.end({ timeout: 5 });
    }
    expect(await stock()).toEqual(Array(BUCKETS).fill(0));
    expect((await sold()).sold).toBe(150);
  });

  it("sells an order whose tickets lie in several buckets, and no more than are left", async () => {
    // 20 tickets: no bucket holds more than 2, so every 3-ticket order gathers from several buckets.
    const { order, stock, sold } = await onSale(20);
    expect(await settle(Array.from({ length: 12 }, (_, n) => order(3, n)))).toBe(6);
    expect(await sold()).toEqual({ sold: 18, items: 18 });
    await expect(order(3, 50)).rejects.toMatchObject({ code: "conflict" });
    await order(2, 51);
    expect(await sold()).toEqual({ sold: 20, items: 20 });
    expect((await stock()).every((available) => available === 0)).toBe(true);
  });

  it("gives refunded tickets back to the stock, where they can be sold again", async () => {
    const { organization, order, sold } = await onSale(2);
    const first = await order(1, 1);
    await order(1, 2);
    await expect(order(1, 3)).rejects.toMatchObject({ code: "conflict" });
    await refundOrder(organization.id, fromPublicId("order", first.id)!);
    expect(await sold()).toEqual({ sold: 1, items: 1 });
    await order(1, 4);
    expect(await sold()).toEqual({ sold: 2, items: 2 });
  });

  it("adds up an array's lines of one ticket type before taking or giving back (bulk imports pass many orders' lines)", async () => {
    const { ticket, stock } = await onSale(10);
    const left = async () => (await stock()).reduce((sum, available) => sum + available, 0);
    const array = (values: unknown[]) => `{${values.join(",")}}`;
    const take = async (quantities: number[]) =>
      rowsOf<{ sold_out: string | null }>(
        await db.execute(sql`select take_tickets(${array(quantities.map(() => ticket.row.id))}::uuid[], ${array(quantities)}::int[]) as sold_out`),
      )[0]!.sold_out;
    expect(await take([2, 3, 1])).toBeNull();
    expect(await left()).toBe(4);
    // 3 + 2 is more than the 4 left, though each line alone is not.
    expect(await take([3, 2])).toBe(ticket.row.id);
    expect(await left()).toBe(4);
    await db.execute(sql`select release_tickets(${array([ticket.row.id, ticket.row.id])}::uuid[], ${array([1, 2])}::int[])`);
    expect(await left()).toBe(7);
  });

  it("follows capacity changes: more tickets spread over the buckets, fewer never below those sold", async () => {
    const { order, stock, sold, edit, ticket } = await onSale(4);
    await settle(Array.from({ length: 3 }, (_, n) => order(1, n)));
    expect((await edit(BUCKETS + 3)).quantity_sold).toBe(3);
    expect(await stock()).toEqual(Array(BUCKETS).fill(1));
    await expect(edit(2)).rejects.toMatchObject({ code: "conflict", message: "quantity_total cannot go below the 3 tickets already sold" });
    const soldOut = await edit(3);
    expect(soldOut).toMatchObject({ id: ticket.id, quantity_total: 3, quantity_sold: 3, status: "sold_out" });
    expect(await stock()).toEqual(Array(BUCKETS).fill(0));
    await expect(order(1, 10)).rejects.toMatchObject({ code: "conflict" });
    expect(await sold()).toEqual({ sold: 3, items: 3 });
  });

  it("holds only the buyer's own bucket until commit: a buyer holding one does not make another wait", async () => {
    const { ticket, order, sold } = await onSale(100);
    await order(1, 0); // the pool's connection exists before the held one picks a bucket no other has
    const held = await connectionWithOwnBucket(database.url());
    try {
      await held`begin`;
      const [taken] = await held`select take_tickets(${`{${ticket.row.id}}`}::uuid[], '{1}'::int[]) as sold_out`;
      expect(taken!.sold_out).toBeNull();
      await Promise.race([
        order(1, 1),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`createOrder waited ${WAIT_LIMIT_MS} ms for the held bucket`)), WAIT_LIMIT_MS)),
      ]);
    } finally {
      await held`rollback`.catch(() => {});
      await held.end({ timeout: 5 });
    }
    expect(await sold()).toEqual({ sold: 2, items: 2 });
  });
});

/** A connection whose stock bucket (pid modulo BUCKETS) no other connection to the database shares. */
async function connectionWithOwnBucket(url: string): Promise<postgres.Sql> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const connection = postgres(url, { max: 1, onnotice: () => {} });
    const [row] = await connection<{ shared: boolean }[]>`
      select exists (
        select 1 from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and pid % ${BUCKETS} = pg_backend_pid() % ${BUCKETS}
      ) as shared`;
    if (!row!.shared) return connection;
    await connection.end({ timeout: 5 });
  }
  throw new Error("no connection with a stock bucket of its own in 50 attempts");
}
