-- order_daily_facet_counts (see order-facet-count-on-insert.sql): truncating orders empties it.
CREATE OR REPLACE FUNCTION orders_facet_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_daily_facet_counts;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_facet_count_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION orders_facet_count_truncated();
