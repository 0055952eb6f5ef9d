-- order_email_word_orders (see order-email-words-on-insert.sql): deleted orders, including those of a deleted
-- organization, take their rows with them, each found by its key from the order's own e-mail.
CREATE OR REPLACE FUNCTION orders_email_words_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_email_word_orders m
  USING deleted_orders d, email_words(d.customer_email) AS w(word)
  WHERE m.organization_id = d.organization_id AND m.word = w.word AND m.order_id = d.id;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_email_words_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS deleted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_email_words_deleted();
