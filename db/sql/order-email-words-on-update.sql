-- order_email_words (see order-email-words-on-insert.sql): an order whose e-mail changes moves from the old
-- address's words to the new one's (the old words themselves may stay: they only lead to no orders, or to the
-- trigram path). Row-level with a column list, so that the updates that do not touch the e-mail (refunds) do not
-- fire it. organization_id cannot change (order-organization-immutable.sql).
CREATE OR REPLACE FUNCTION orders_email_words_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_email_word_orders m
  USING order_email_words ew, email_words(OLD.customer_email) AS w
  WHERE ew.organization_id = OLD.organization_id AND ew.word = w.word AND NOT w.in_domain
    AND m.word_id = ew.id AND m.order_id = OLD.id;
  INSERT INTO order_email_words (organization_id, word)
  SELECT DISTINCT NEW.organization_id, w.word FROM email_words(NEW.customer_email) AS w WHERE NOT w.in_domain ORDER BY 2
  ON CONFLICT DO NOTHING;
  INSERT INTO order_email_domain_words (organization_id, word)
  SELECT DISTINCT NEW.organization_id, w.word FROM email_words(NEW.customer_email) AS w WHERE w.in_domain ORDER BY 2
  ON CONFLICT DO NOTHING;
  INSERT INTO order_email_word_orders (word_id, order_id)
  SELECT DISTINCT (SELECT ew.id FROM order_email_words ew WHERE ew.organization_id = NEW.organization_id AND ew.word = w.word), NEW.id
  FROM email_words(NEW.customer_email) AS w
  WHERE NOT w.in_domain;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_email_words_update AFTER UPDATE OF customer_email ON orders
  FOR EACH ROW WHEN (lower(OLD.customer_email) IS DISTINCT FROM lower(NEW.customer_email))
  EXECUTE FUNCTION orders_email_words_updated();
