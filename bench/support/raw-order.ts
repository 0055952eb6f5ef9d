import { randomUUID } from "node:crypto";
import type postgres from "postgres";

export interface RawOrderTarget {
  organizationId: string;
  /** Bare ids (not the API's public ones). */
  eventId: string;
  ticketTypeId: string;
}

class SoldOut extends Error {}

/**
 * The statements createOrder (lib/orders/create-order.ts) runs for an order of one ticket without a campaign
 * and without webhook deliveries, in the same order, written by hand for postgres.js: the event held FOR SHARE
 * with its ticket types, then place_order (db/sql/place-order.sql: the order, its items, the outbox's
 * integration look-up, and the ticket taken from the stock buckets last). Resolves false when the ticket type
 * is sold out (the app's 409, rolled back).
 */
export async function rawOrder(sqlc: postgres.Sql, target: RawOrderTarget, email: string): Promise<boolean> {
  const { organizationId, eventId, ticketTypeId } = target;
  return sqlc
    .begin(async (tx) => {
      const [line] = await tx`select e.id as event_id, e.name as event_name, e.status, t.id, t.name, t.category, t.price, t.vat_percent,
          t.sale_starts_at, t.sale_ends_at, t.cancelled_at
        from events e left join ticket_types t on t.organization_id = ${organizationId} and t.event_id = e.id and t.id in (${ticketTypeId})
        where e.organization_id = ${organizationId} and e.id = ${eventId} and e.deleted_at is null for share of e`;
      const lines = [
        { id: randomUUID(), ticket_type_id: line!.id, name: line!.name, category: line!.category, quantity: 1, unit_price: line!.price, vat_percent: line!.vat_percent },
      ];
      const [placed] = await tx`select * from place_order(${organizationId}, ${line!.event_id}, ${line!.event_name}, ${email},
        ${`Raw Buyer ${email}`}, null, 'unspecified', 'unspecified', 'api', ${line!.price}, ${line!.price}, ${tx.json(lines)},
        null, null, null, null)`;
      if (placed!.sold_out !== null) throw new SoldOut();
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof SoldOut) return false;
      throw error;
    });
}
