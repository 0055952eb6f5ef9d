-- order_email_word_orders (db/schema/orders.ts) copies each order's sort keys (lower-cased name, created_at,
-- total_price), which the search reads there instead of in orders: an order whose name or price changes gets them in
-- its rows too, and letters_in_name for the new name (email_word_letters_in_name); created_at cannot change
-- (order-created-at-immutable.sql). They are found by their keys from the old address, so an e-mail changed in the
-- same statement, whose trigger moves them to the new address's words with the new keys
-- (order-email-words-on-update.sql), may run before or after this. Row-level with a column list, so that the updates
-- that touch neither (refunds) do not fire it. organization_id cannot change (order-organization-immutable.sql).
CREATE OR REPLACE FUNCTION orders_email_word_keys_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE order_email_word_orders m SET lower_customer_name = lower(NEW.customer_name), total_price = NEW.total_price,
    letters_in_name = email_word_letters_in_name(k.word, lower(NEW.customer_name))
  FROM order_email_word_ids(OLD.organization_id, OLD.customer_email) AS k
  WHERE m.word_id = k.word_id AND m.order_id = OLD.id;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_email_word_keys_update AFTER UPDATE OF customer_name, total_price ON orders
  FOR EACH ROW WHEN (lower(OLD.customer_name) IS DISTINCT FROM lower(NEW.customer_name) OR OLD.total_price IS DISTINCT FROM NEW.total_price)
  EXECUTE FUNCTION orders_email_word_keys_updated();
