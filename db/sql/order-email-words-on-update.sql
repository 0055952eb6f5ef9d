-- order_email_words (see order-email-words-on-insert.sql): an order whose e-mail changes moves from the old
-- address's words to the new one's, which it adds as an inserted order does (add_order_email_words); the old words
-- themselves may stay: they only lead to no orders, or to the trigram path. Row-level with a column list, so that
-- the updates that do not touch the e-mail (refunds) do not fire it. organization_id cannot change
-- (order-organization-immutable.sql).
CREATE OR REPLACE FUNCTION orders_email_words_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_email_word_orders m
  USING order_email_word_ids(OLD.organization_id, OLD.customer_email) AS k
  WHERE m.word_id = k.word_id AND m.order_id = OLD.id;
  PERFORM add_order_email_words(ARRAY[NEW.organization_id], ARRAY[NEW.id], ARRAY[NEW.customer_email], ARRAY[NEW.customer_name],
    ARRAY[NEW.created_at], ARRAY[NEW.total_price]);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_email_words_update AFTER UPDATE OF customer_email ON orders
  FOR EACH ROW WHEN (lower(OLD.customer_email) IS DISTINCT FROM lower(NEW.customer_email))
  EXECUTE FUNCTION orders_email_words_updated();
