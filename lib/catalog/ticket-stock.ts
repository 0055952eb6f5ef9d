import { sql } from "drizzle-orm";
import { rowsOf, type Queryable } from "@/db/client";

/**
 * For writers that insert orders themselves (demo data, fixtures): sets the stock of the organization's ticket
 * types that have completed orders to quantity_total less the tickets of those orders, as if checkout had sold
 * them (db/sql/ticket-type-stock-spread.sql).
 */
export async function setStockFromOrders(q: Queryable, organizationId: string): Promise<void> {
  await q.execute(sql`
    select ticket_type_stock_spread(t.id, t.quantity_total - s.sold)
    from ticket_types t
    join (
      select i.ticket_type_id, sum(i.quantity)::int as sold
      from order_items i join orders o on o.id = i.order_id
      where o.organization_id = ${organizationId} and o.status = 'completed'
      group by i.ticket_type_id
    ) s on s.ticket_type_id = t.id
    where t.organization_id = ${organizationId}`);
}

/**
 * For bulk imports: takes `quantities[i]` tickets of `ticketTypeIds[i]` (db/sql/take-tickets.sql), first raising
 * a ticket type's quantity_total where fewer are left.
 */
export async function takeTicketsGrowingCapacity(q: Queryable, ticketTypeIds: string[], quantities: number[]): Promise<void> {
  if (ticketTypeIds.length === 0) return;
  const ids = `{${ticketTypeIds.join(",")}}`;
  const amounts = `{${quantities.join(",")}}`;
  await q.execute(sql`
    update ticket_types t set quantity_total = greatest(t.quantity_total, t.quantity_sold + x.quantity)
    from unnest(${ids}::uuid[], ${amounts}::int[]) as x(id, quantity)
    where t.id = x.id`);
  const [result] = rowsOf<{ sold_out: string | null }>(
    await q.execute(sql`select take_tickets(${ids}::uuid[], ${amounts}::int[]) as sold_out`),
  );
  if (result?.sold_out) throw new Error(`ticket type ${result.sold_out} has too few tickets left after growing its capacity`);
}
