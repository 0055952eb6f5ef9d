-- order_email_word_ids(org, email): the words of the e-mail's local part (see email-words.sql) with their ids in
-- order_email_words, each looked up by its key (organization, word), null for a word the organization does not have;
-- a word twice in the address gives its id twice. The keys of an order's rows in order_email_word_orders, for the
-- functions that add, rename, move and delete them, and the words whose letters those rows test against the name
-- (email_word_letters_in_name). Plain SQL, so that PostgreSQL inlines it into the statement that calls it for each
-- order, as if its lookup were written there.
CREATE OR REPLACE FUNCTION order_email_word_ids(org uuid, email text) RETURNS TABLE (word_id bigint, word text)
LANGUAGE sql STABLE AS $$
  SELECT (SELECT ew.id FROM order_email_words ew WHERE ew.organization_id = org AND ew.word = w.word), w.word
  FROM email_words(email) AS w
  WHERE NOT w.in_domain
$$;
