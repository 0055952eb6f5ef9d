-- release_tickets(ticket_type_ids, quantities): gives tickets back to ticket_type_stock (refunds) into this
-- connection's bucket, one ticket type at a time in id order, the order take_tickets locks them in.
CREATE OR REPLACE FUNCTION release_tickets(ticket_type_ids uuid[], quantities integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  line record;
BEGIN
  FOR line IN SELECT * FROM ticket_lines_by_type(ticket_type_ids, quantities) LOOP
    UPDATE ticket_type_stock SET available = available + line.quantity
    WHERE ticket_type_id = line.id AND bucket = pg_backend_pid() % ticket_stock_buckets();
  END LOOP;
END $$;
