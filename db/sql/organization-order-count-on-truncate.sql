-- organization_order_counts (see organization-order-count-on-insert.sql): truncating orders empties it.
CREATE OR REPLACE FUNCTION orders_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM organization_order_counts;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_count_truncate AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION orders_count_truncated();
