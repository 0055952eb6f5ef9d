-- The words of an e-mail for order_email_words (db/schema/orders.ts): the maximal runs of a-z and 0-9 of the
-- lower-cased address, each once. A `q` of only those characters is a substring of the address exactly when it
-- is a substring of one of these words, which is what lets the transactions search look words up instead of
-- rechecking addresses.
CREATE OR REPLACE FUNCTION email_words(email text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT word FROM regexp_split_to_table(lower(email), '[^a-z0-9]+') AS word WHERE word <> ''
$$;
