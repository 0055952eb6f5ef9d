-- add_order_email_words(organization_ids, order_ids, emails, customer_names, created_ats, total_prices): the words of
-- the given orders' e-mails into order_email_words, order_email_domain_words and order_email_word_orders (see
-- order-email-words-on-insert.sql), each order's rows with its lower-cased name, created_at and total_price (the
-- search's sort keys), its lower-cased address (what a `q` with a separator is tested against) and whether its word's
-- letters are in that name (email_word_letters_in_name), the six arrays read in step as one row per order. Called by
-- the insert trigger for a statement's orders and by the update trigger for an order's new address. New words
-- deduplicated and added in key order, so that concurrent orders bringing the same new word wait on each other in the
-- same order instead of deadlocking; an order's own rows are new keys, which no other order writes.
-- Planned once per session (force_generic_plan): for the parameters' arrays the planner always found custom plans
-- cheaper than its generic estimate, so under `auto` both statements were planned on every call, 0.42 ms of
-- PostgreSQL CPU per order against 0.2 ms to run them; each word is looked up by its key whatever the arrays' length,
-- which is the plan either way. Without JIT: the generic plan's estimate for the arrays (some 10,000 words, each
-- looked up by a subplan) passes jit_above_cost, and compiling it took 12-25 ms of every order (pg_stat_user_functions
-- at 1,000,000 orders) to run a statement of a few rows.
CREATE OR REPLACE FUNCTION add_order_email_words(
  organization_ids uuid[], order_ids uuid[], emails text[], customer_names text[], created_ats timestamptz[], total_prices int[]
)
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET jit = off AS $$
BEGIN
  WITH words AS MATERIALIZED (
    SELECT DISTINCT o.organization_id, w.word, w.in_domain
    FROM unnest(organization_ids, emails) AS o(organization_id, customer_email), email_words(o.customer_email) AS w
  ), domain_words AS (
    INSERT INTO order_email_domain_words (organization_id, word)
    SELECT organization_id, word FROM words WHERE in_domain ORDER BY 1, 2
    ON CONFLICT DO NOTHING
  )
  INSERT INTO order_email_words (organization_id, word)
  SELECT organization_id, word FROM words WHERE NOT in_domain ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  -- Each word's id by its key (order_email_word_ids), not a join the planner could turn into a scan of the words per
  -- order.
  INSERT INTO order_email_word_orders (word_id, order_id, lower_customer_name, created_at, total_price, lower_customer_email, letters_in_name)
  SELECT DISTINCT k.word_id, o.id, lower(o.customer_name), o.created_at, o.total_price, lower(o.customer_email),
    email_word_letters_in_name(k.word, lower(o.customer_name))
  FROM unnest(organization_ids, order_ids, emails, customer_names, created_ats, total_prices)
      AS o(organization_id, id, customer_email, customer_name, created_at, total_price),
    order_email_word_ids(o.organization_id, o.customer_email) AS k;
END $$;
