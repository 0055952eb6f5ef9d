-- quantity_sold(ticket_types): tickets sold, derived (quantity_total less the unsold tickets in
-- ticket_type_stock) rather than stored on the ticket type, whose row would otherwise be one every order of an
-- on-sale writes and waits for. Also readable as a column: `t.quantity_sold` for a ticket_types row t.
CREATE OR REPLACE FUNCTION quantity_sold(ticket_types) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT $1.quantity_total - coalesce((SELECT sum(available) FROM ticket_type_stock WHERE ticket_type_id = $1.id), 0)::integer
$$;
