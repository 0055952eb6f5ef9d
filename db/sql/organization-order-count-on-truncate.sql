-- organizations.order_count (see organization-order-count-on-insert.sql): truncating orders zeroes every
-- organization's count.
CREATE OR REPLACE FUNCTION orders_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organizations SET order_count = 0 WHERE order_count <> 0;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_count_truncate AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION orders_count_truncated();
