-- order_customer_names (db/schema/orders.ts, the transactions search's `q` on names) holds every lower-cased
-- customer name of each organization's orders, in the same transaction as the order. This file: inserted
-- orders add their names. Statement-level, names deduplicated and added in key order, so that concurrent
-- orders bringing the same new name wait on each other in the same order instead of deadlocking.
CREATE OR REPLACE FUNCTION orders_customer_names_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_customer_names (organization_id, name)
  SELECT DISTINCT organization_id, lower(customer_name) FROM inserted_orders ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_customer_names_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS inserted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_customer_names_inserted();
