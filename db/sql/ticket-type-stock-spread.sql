-- ticket_type_stock_spread(tt, amount): sets the ticket type's unsold tickets to `amount`, spread evenly over
-- its buckets (creating them if need be). Callers that re-spread existing stock hold every bucket's row first.
-- A negative amount (more sold than there are tickets) is refused.
CREATE OR REPLACE FUNCTION ticket_type_stock_spread(tt uuid, amount integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF amount < 0 THEN
    RAISE EXCEPTION 'ticket type % would have % tickets left', tt, amount USING ERRCODE = 'check_violation';
  END IF;
  INSERT INTO ticket_type_stock AS s (ticket_type_id, bucket, available)
  SELECT tt, b, amount / ticket_stock_buckets() + (b < amount % ticket_stock_buckets())::integer
  FROM generate_series(0, ticket_stock_buckets() - 1) b
  ON CONFLICT (ticket_type_id, bucket) DO UPDATE SET available = excluded.available;
END $$;
