-- order_email_word_orders (see order-email-words-on-insert.sql): deleted orders take their rows with them, each
-- found by its key from the order's own e-mail. Those of a deleted organization go with its words, whichever
-- of the two cascades comes first (order-email-words-on-word-delete.sql).
CREATE OR REPLACE FUNCTION orders_email_words_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_email_word_orders m
  USING deleted_orders d, order_email_word_ids(d.organization_id, d.customer_email) AS k
  WHERE m.word_id = k.word_id AND m.order_id = d.id;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_email_words_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS deleted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_email_words_deleted();
