-- order_email_words (see order-email-words-on-insert.sql): an order whose e-mail changes moves from the old
-- address's words to the new one's (the old words themselves may stay: they only lead to no orders). Row-level
-- with a column list, so that the updates that do not touch the e-mail (refunds) do not fire it.
-- organization_id cannot change (order-organization-immutable.sql).
CREATE OR REPLACE FUNCTION orders_email_words_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_email_word_orders
  WHERE organization_id = OLD.organization_id AND word IN (SELECT email_words(OLD.customer_email)) AND order_id = OLD.id;
  INSERT INTO order_email_words (organization_id, word)
  SELECT NEW.organization_id, w.word FROM email_words(NEW.customer_email) AS w(word) ORDER BY 2
  ON CONFLICT DO NOTHING;
  INSERT INTO order_email_word_orders (organization_id, word, order_id)
  SELECT NEW.organization_id, w.word, NEW.id FROM email_words(NEW.customer_email) AS w(word);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_email_words_update AFTER UPDATE OF customer_email ON orders
  FOR EACH ROW WHEN (lower(OLD.customer_email) IS DISTINCT FROM lower(NEW.customer_email))
  EXECUTE FUNCTION orders_email_words_updated();
