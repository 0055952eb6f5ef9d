-- order_customer_names (see order-customer-names-on-insert.sql): truncating orders empties it.
CREATE OR REPLACE FUNCTION orders_customer_names_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_customer_names;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_customer_names_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION orders_customer_names_truncated();
