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
 * with its ticket types, the order inserted (with the outbox's integration look-up in its RETURNING) and its
 * items (their rows make the response), and the ticket taken from the stock buckets last. Resolves false when the ticket type
 * is sold out (the app's 409, rolled back).
 */
export async function rawOrder(sqlc: postgres.Sql, target: RawOrderTarget, email: string): Promise<boolean> {
  const { organizationId, eventId, ticketTypeId } = target;
  return sqlc
    .begin(async (tx) => {
      const [line] = await tx`select e.id as event_id, e.name as event_name, e.status, t.*
        from events e left join ticket_types t on t.organization_id = ${organizationId} and t.event_id = e.id and t.id in (${ticketTypeId})
        where e.organization_id = ${organizationId} and e.id = ${eventId} and e.deleted_at is null for share of e`;
      const [order] = await tx`insert into orders (organization_id, event_id, order_number, status, customer_email,
          customer_name, customer_phone, payment_method, payment_method_brand, order_source, currency, original_price, total_price)
        values (${organizationId}, ${line!.event_id}, next_order_number(${organizationId}), 'completed', ${email},
          ${`Raw Buyer ${email}`}, null, 'unspecified', 'unspecified', 'api',
          (select currency from organizations where id = ${organizationId}), ${line!.price}, ${line!.price})
        returning *, array(select id from webhook_integrations where organization_id = ${organizationId} and enabled
          and deleted_at is null and events @> ${["OrderCompleted"]}) as integration_ids`;
      await tx`insert into order_items (order_id, ticket_type_id, name, category, quantity, unit_price, vat_percent, event_id, event_name)
        values (${order!.id}, ${line!.id}, ${line!.name}, ${line!.category}, 1, ${line!.price}, ${line!.vat_percent},
          ${line!.event_id}, ${line!.event_name})
        returning *`;
      const [taken] = await tx`select take_tickets(${`{${ticketTypeId}}`}::uuid[], ${"{1}"}::int[]) as sold_out`;
      if (taken!.sold_out !== null) throw new SoldOut();
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof SoldOut) return false;
      throw error;
    });
}
