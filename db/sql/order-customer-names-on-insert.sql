-- order_customer_names (db/schema/orders.ts, the transactions search's `q` on names) holds every lower-cased
-- customer name of each organization's orders with how many orders have it, summed over its slots
-- (order_customer_name_slot), in the same transaction as the order. This file: inserted orders add their names or
-- add to their counts. Statement-level, names aggregated and written in key order, so that concurrent orders of
-- one name in one slot wait on each other in the same order instead of deadlocking.
CREATE OR REPLACE FUNCTION orders_customer_names_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_customer_names AS c (organization_id, name, slot, order_count)
  SELECT organization_id, lower(customer_name), order_customer_name_slot(true), count(*)
  FROM inserted_orders GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (organization_id, name, slot) DO UPDATE SET order_count = c.order_count + excluded.order_count;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_customer_names_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS inserted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_customer_names_inserted();
