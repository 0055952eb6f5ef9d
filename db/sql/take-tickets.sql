-- take_tickets(ticket_type_ids, quantities): takes the tickets of an order from ticket_type_stock, ticket types
-- in id order (so concurrent orders cannot deadlock), and returns the first ticket type without enough left
-- (the caller rolls back), or NULL once all are taken.
-- Fast path: one conditional UPDATE of this connection's bucket, the only row held until commit, so up to
-- ticket_stock_buckets() buyers of one ticket type commit side by side. When that bucket has too few, every
-- bucket of the type is locked in bucket order, the exact total decides, and what is left is re-spread evenly,
-- so buckets run dry together and the last ticket is sold exactly once.
-- The fast path runs in a subtransaction that a short bucket rolls back: an UPDATE that waited for the bucket
-- and then found too few keeps the row locked otherwise (PostgreSQL locks the newest version before it
-- re-checks the condition), and holding one bucket while locking the others in order deadlocks with another
-- order doing the same.
CREATE OR REPLACE FUNCTION take_tickets(ticket_type_ids uuid[], quantities integer[]) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  line record;
  unsold integer;
BEGIN
  FOR line IN SELECT * FROM ticket_lines_by_type(ticket_type_ids, quantities) LOOP
    BEGIN
      UPDATE ticket_type_stock SET available = available - line.quantity
      WHERE ticket_type_id = line.id AND bucket = pg_backend_pid() % ticket_stock_buckets() AND available >= line.quantity;
      IF FOUND THEN
        CONTINUE;
      END IF;
      RAISE EXCEPTION USING ERRCODE = 'no_data_found';
    EXCEPTION WHEN no_data_found THEN
      NULL;
    END;
    SELECT coalesce(sum(s.available), 0) INTO unsold
    FROM (SELECT available FROM ticket_type_stock WHERE ticket_type_id = line.id ORDER BY bucket FOR UPDATE) s;
    IF unsold < line.quantity THEN
      RETURN line.id;
    END IF;
    PERFORM ticket_type_stock_spread(line.id, unsold - line.quantity);
  END LOOP;
  RETURN NULL;
END $$;
