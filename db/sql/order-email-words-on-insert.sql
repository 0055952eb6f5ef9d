-- order_email_words and order_email_word_orders (db/schema/orders.ts, the transactions search's `q` on e-mails)
-- hold the words of each organization's customer e-mails (email_words) and each order under each of its words,
-- in the same transaction as the order. This file: inserted orders add theirs. Statement-level, new words
-- deduplicated and added in key order, so that concurrent orders bringing the same new word wait on each other
-- in the same order instead of deadlocking; an order's own rows are new keys, which no other order writes.
CREATE OR REPLACE FUNCTION orders_email_words_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_email_words (organization_id, word)
  SELECT DISTINCT o.organization_id, w.word FROM inserted_orders o, email_words(o.customer_email) AS w(word) ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  INSERT INTO order_email_word_orders (organization_id, word, order_id)
  SELECT o.organization_id, w.word, o.id FROM inserted_orders o, email_words(o.customer_email) AS w(word);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_email_words_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS inserted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_email_words_inserted();
