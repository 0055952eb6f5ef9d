-- order_email_words, order_email_domain_words and order_email_word_orders (db/schema/orders.ts, the transactions
-- search's `q` on e-mails) hold the words of each organization's customer e-mails (email_words), local parts' and
-- domains' apart, and each order under each word of its local part, in the same transaction as the order. This
-- file: inserted orders add theirs. Statement-level, new words deduplicated and added in key order, so that
-- concurrent orders bringing the same new word wait on each other in the same order instead of deadlocking; an
-- order's own rows are new keys, which no other order writes.
CREATE OR REPLACE FUNCTION orders_email_words_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH words AS MATERIALIZED (
    SELECT DISTINCT o.organization_id, w.word, w.in_domain FROM inserted_orders o, email_words(o.customer_email) AS w
  ), domain_words AS (
    INSERT INTO order_email_domain_words (organization_id, word)
    SELECT organization_id, word FROM words WHERE in_domain ORDER BY 1, 2
    ON CONFLICT DO NOTHING
  )
  INSERT INTO order_email_words (organization_id, word)
  SELECT organization_id, word FROM words WHERE NOT in_domain ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  -- Each word's id by its key, not a join the planner could turn into a scan of the words per order.
  INSERT INTO order_email_word_orders (word_id, order_id)
  SELECT DISTINCT (SELECT ew.id FROM order_email_words ew WHERE ew.organization_id = o.organization_id AND ew.word = w.word), o.id
  FROM inserted_orders o, email_words(o.customer_email) AS w
  WHERE NOT w.in_domain;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_email_words_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS inserted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_email_words_inserted();
