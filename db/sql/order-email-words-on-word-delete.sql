-- order_email_word_orders (see order-email-words-on-insert.sql): a deleted word (only ever with its organization)
-- takes its orders' rows with it. A foreign key would do the same, but it would check each row an order adds.
CREATE OR REPLACE FUNCTION order_email_words_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_email_word_orders m USING deleted_words d WHERE m.word_id = d.id;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER order_email_words_delete AFTER DELETE ON order_email_words
  REFERENCING OLD TABLE AS deleted_words FOR EACH STATEMENT EXECUTE FUNCTION order_email_words_deleted();
