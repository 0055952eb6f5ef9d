-- order_customer_names (see order-customer-names-on-insert.sql): a renamed customer's new name is added; the
-- old one may stay (it only leads to no orders). The order's rows in order_email_word_orders take the new name,
-- which the search tests there (db/schema/orders.ts); they are found by their keys from the old address, so an
-- e-mail changed in the same statement, whose trigger moves them to the new address's words with the new name
-- (order-email-words-on-update.sql), may run before or after this. Row-level with a column list, so that the
-- updates that do not touch the name (refunds) do not fire it, which a statement-level trigger with a transition
-- table would. organization_id cannot change (order-organization-immutable.sql).
CREATE OR REPLACE FUNCTION orders_customer_name_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_customer_names (organization_id, name) VALUES (NEW.organization_id, lower(NEW.customer_name))
  ON CONFLICT DO NOTHING;
  UPDATE order_email_word_orders m SET lower_customer_name = lower(NEW.customer_name)
  FROM order_email_word_ids(OLD.organization_id, OLD.customer_email) AS k
  WHERE m.word_id = k.word_id AND m.order_id = OLD.id;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_customer_name_update AFTER UPDATE OF customer_name ON orders
  FOR EACH ROW WHEN (lower(OLD.customer_name) IS DISTINCT FROM lower(NEW.customer_name))
  EXECUTE FUNCTION orders_customer_name_updated();
