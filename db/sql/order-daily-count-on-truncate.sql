-- order_daily_counts (see order-daily-count-on-insert.sql): truncating orders empties it.
CREATE OR REPLACE FUNCTION orders_daily_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_daily_counts;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_daily_count_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION orders_daily_count_truncated();
