-- ticket_lines_by_type(ticket_type_ids, quantities): lines of orders as one row per ticket type with its total
-- quantity, in ticket type id order: the order take_tickets and release_tickets lock ticket_type_stock rows in,
-- so that concurrent orders and refunds cannot deadlock.
CREATE OR REPLACE FUNCTION ticket_lines_by_type(ticket_type_ids uuid[], quantities integer[]) RETURNS TABLE (id uuid, quantity integer) LANGUAGE sql IMMUTABLE AS $$
  SELECT t.id, sum(t.quantity)::integer FROM unnest(ticket_type_ids, quantities) AS t(id, quantity)
  GROUP BY t.id ORDER BY t.id
$$;
