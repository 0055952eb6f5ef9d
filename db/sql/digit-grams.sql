-- The runs of four digits in a text: each window of four digits, as an integer (`0012` is 12, which no other window
-- is), a window with any other character none; the same window may come twice. For the phone's index in the
-- transactions search (orders_customer_phone_digit_grams_idx): a phone holds a run of four or more digits only if its
-- windows hold the run's, and one such window is in far fewer phones than each of the run's trigrams. PL/pgSQL,
-- because PostgreSQL plans a SQL function with a FROM again in every statement that calls it (41 us a call in a
-- loop, against 13 us), and an order's insert calls it once. COST 20, not PL/pgSQL's default 100: over every phone it
-- costs about ten times `lower(phone) LIKE` (2 units), and at 100 the search's generic plan, which guesses 5,500
-- matches for any `@>`, priced their recheck above starting parallel workers, and a three-match search took 14 ms.
CREATE OR REPLACE FUNCTION digit_grams(value text) RETURNS int[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT COST 20 AS $$
DECLARE
  grams int[] := '{}';
  run int := 0;
BEGIN
  FOR i IN 1..length(value) LOOP
    -- ascii, not a text comparison: under a collation other characters sort between '0' and '9'.
    IF ascii(substr(value, i, 1)) BETWEEN 48 AND 57 THEN run := run + 1; ELSE run := 0; END IF;
    IF run >= 4 THEN grams := grams || substr(value, i - 3, 4)::int; END IF;
  END LOOP;
  RETURN grams;
END
$$;
