-- order_email_words, order_email_domain_words and order_email_word_orders (db/schema/orders.ts, the transactions
-- search's `q` on e-mails) hold the words of each organization's customer e-mails (email_words), local parts' and
-- domains' apart, and each order under each word of its local part, in the same transaction as the order. This
-- file: inserted orders add theirs, all of a statement's orders in one call (order-email-words-add.sql).
CREATE OR REPLACE FUNCTION orders_email_words_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM add_order_email_words(array_agg(o.organization_id), array_agg(o.id), array_agg(o.customer_email), array_agg(o.customer_name),
    array_agg(o.created_at), array_agg(o.total_price))
  FROM inserted_orders o;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_email_words_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS inserted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_email_words_inserted();
