import { randomUUID } from "node:crypto";
import type postgres from "postgres";

export interface RawOrderTarget {
  organizationId: string;
  /** Bare ids (not the API's public ones). */
  eventId: string;
  ticketTypeId: string;
}

/** place_order's SQLSTATE for a sold-out ticket type (db/sql/place-order.sql). */
const SOLD_OUT = "TK001";

/**
 * The statements createOrder (lib/orders/create-order.ts) runs for an order of one ticket without a campaign
 * for an organization without integrations, in the same order, written by hand for postgres.js: the checks' read of
 * the event with its ticket types and its subscribed integrations, then place_order alone (db/sql/place-order.sql: the
 * event locked and checked again, the order, its items, and the ticket taken from the stock buckets last), no
 * transaction around either. Resolves false when the ticket type is sold out (the app's 409, rolled back).
 */
export async function rawOrder(sqlc: postgres.Sql, target: RawOrderTarget, email: string): Promise<boolean> {
  const { organizationId, eventId, ticketTypeId } = target;
  const [line] = await sqlc`select e.id as event_id, e.name as event_name, e.status, t.id, t.name, t.category, t.price, t.vat_percent,
      t.sale_starts_at, t.sale_ends_at, t.cancelled_at, cardinality(subscribed_integrations(e.organization_id, 'OrderCompleted')) > 0 as subscribed
    from events e left join ticket_types t on t.organization_id = e.organization_id and t.event_id = e.id and t.id = any(${`{${ticketTypeId}}`}::uuid[])
    where e.organization_id = ${organizationId} and e.id = ${eventId} and e.deleted_at is null`;
  const lines = [
    { id: randomUUID(), ticket_type_id: line!.id, name: line!.name, category: line!.category, quantity: 1, unit_price: line!.price, vat_percent: line!.vat_percent },
  ];
  return sqlc`select * from place_order(${organizationId}, ${line!.event_id}, ${line!.event_name}, ${email},
      ${`Raw Buyer ${email}`}, null, 'unspecified', 'unspecified', 'api', ${line!.price}, ${line!.price}, ${sqlc.json(lines)},
      null, null, null, null, null)`.then(
    () => true,
    (error: unknown) => {
      if ((error as { code?: string }).code === SOLD_OUT) return false;
      throw error;
    },
  );
}
