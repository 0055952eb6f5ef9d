-- order_email_word_orders (see order-email-words-on-insert.sql): deleted orders take their rows with them, each
-- found by its key from the order's own e-mail. Those of a deleted organization go with its words, whichever
-- of the two cascades comes first (order-email-words-on-word-delete.sql).
CREATE OR REPLACE FUNCTION orders_email_words_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_email_word_orders m
  USING (
    SELECT (SELECT ew.id FROM order_email_words ew WHERE ew.organization_id = d.organization_id AND ew.word = w.word) AS word_id,
      d.id AS order_id
    FROM deleted_orders d, email_words(d.customer_email) AS w
    WHERE NOT w.in_domain
  ) AS k
  WHERE m.word_id = k.word_id AND m.order_id = k.order_id;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_email_words_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS deleted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_email_words_deleted();
