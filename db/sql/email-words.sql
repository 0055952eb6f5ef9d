-- The words of an e-mail for order_email_words and order_email_domain_words (db/schema/orders.ts): the maximal
-- runs of a-z and 0-9 of the lower-cased address, and whether each is in the domain (after the last `@`) or the
-- local part (before it, or all of an address without one); a word may come more than once, which callers that
-- need it once deduplicate with the rest of their rows. A `q` of only those characters is a substring of the
-- address exactly when it is a substring of one of these words, which is what lets the transactions search look
-- words up instead of rechecking addresses.
CREATE OR REPLACE FUNCTION email_words(email text) RETURNS TABLE (word text, in_domain boolean)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT w.word, p.in_domain
  FROM (SELECT lower(email) AS address, split_part(lower(email), '@', -1) AS domain) AS a,
    LATERAL (VALUES (false, CASE WHEN strpos(a.address, '@') > 0 THEN left(a.address, -length(a.domain) - 1) ELSE a.address END),
                    (true, CASE WHEN strpos(a.address, '@') > 0 THEN a.domain END)) AS p(in_domain, part),
    regexp_split_to_table(p.part, '[^a-z0-9]+') AS w(word)
  WHERE w.word <> ''
$$;
