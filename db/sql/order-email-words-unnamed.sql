-- order_email_words.unnamed_orders (db/schema/orders.ts): a word is marked once one of its rows in
-- order_email_word_orders has letters_in_name false, however the row got there (an order added, renamed, or moved to
-- a new address), and never cleared. Row-level with a WHEN, so that the rows whose letters are in the name (most of
-- them) queue nothing; a word already marked is left unlocked.
CREATE OR REPLACE FUNCTION order_email_word_orders_unnamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE order_email_words SET unnamed_orders = true WHERE id = NEW.word_id AND NOT unnamed_orders;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER order_email_word_orders_unnamed AFTER INSERT OR UPDATE OF letters_in_name ON order_email_word_orders
  FOR EACH ROW WHEN (NOT NEW.letters_in_name) EXECUTE FUNCTION order_email_word_orders_unnamed();
