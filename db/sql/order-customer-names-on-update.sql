-- order_customer_names (see order-customer-names-on-insert.sql): a renamed customer's order moves from the old
-- name's count to the new one's, both rows written by one statement in key order; the old name may stay with a count
-- of 0 (it only leads to no orders). Row-level with a column list, so that the updates that do not touch the name
-- (refunds) do not fire it, which a statement-level trigger with a transition table would.
CREATE OR REPLACE FUNCTION orders_customer_name_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_customer_names AS c (organization_id, name, slot, order_count)
  SELECT NEW.organization_id, moved.name, order_customer_name_slot(false), moved.change
  FROM (VALUES (lower(OLD.customer_name), -1), (lower(NEW.customer_name), 1)) AS moved(name, change)
  ORDER BY moved.name
  ON CONFLICT (organization_id, name, slot) DO UPDATE SET order_count = c.order_count + excluded.order_count;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_customer_name_update AFTER UPDATE OF customer_name ON orders
  FOR EACH ROW WHEN (lower(OLD.customer_name) IS DISTINCT FROM lower(NEW.customer_name))
  EXECUTE FUNCTION orders_customer_name_updated();
