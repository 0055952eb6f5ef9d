-- count_orders_created_between(org, lo, hi, hi_inclusive): count_orders_matching without the event, refund,
-- channel and payment method filters. Used by the transactions search for its totals.
CREATE OR REPLACE FUNCTION count_orders_created_between(org uuid, lo timestamptz, hi timestamptz, hi_inclusive boolean)
RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT count_orders_matching(org, lo, hi, hi_inclusive, NULL, NULL, NULL, NULL)
$$;
