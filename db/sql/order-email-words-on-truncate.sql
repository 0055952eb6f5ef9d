-- order_email_word_orders (see order-email-words-on-insert.sql): truncating orders empties it.
CREATE OR REPLACE FUNCTION orders_email_words_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_email_word_orders;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_email_words_truncate AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION orders_email_words_truncated();
