-- order_customer_names (see order-customer-names-on-insert.sql): a renamed customer's new name is added; the
-- old one may stay (it only leads to no orders). Row-level with a column list, so that the updates that do not touch
-- the name (refunds) do not fire it, which a statement-level trigger with a transition table would.
CREATE OR REPLACE FUNCTION orders_customer_name_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_customer_names (organization_id, name) VALUES (NEW.organization_id, lower(NEW.customer_name))
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_customer_name_update AFTER UPDATE OF customer_name ON orders
  FOR EACH ROW WHEN (lower(OLD.customer_name) IS DISTINCT FROM lower(NEW.customer_name))
  EXECUTE FUNCTION orders_customer_name_updated();
