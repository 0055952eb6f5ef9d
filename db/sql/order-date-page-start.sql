-- order_date_page_start(org, lo, hi, hi_inclusive, event, refunded, source, method, descending, skip): where the
-- transactions page at offset `skip` starts among the orders count_orders_matching counts for the same arguments,
-- in created_at order (newest first when descending): it is those orders from `bound` on (created_at < bound when
-- descending, created_at >= bound otherwise; an infinite bound bounds nothing) in that order, after the first
-- `remaining` of them. The whole days the offset passes over are counted by their trigger-kept counters
-- (order_days_matching) and only the partial day the ordering starts in row by row, so a deep page skips at most
-- about one day's orders in the index instead of every order before it. Called in the statement that reads the
-- page, the two see the same orders.
CREATE OR REPLACE FUNCTION order_date_page_start(
  org uuid, lo timestamptz, hi timestamptz, hi_inclusive boolean, event uuid, refunded boolean, source text, method text,
  descending boolean, skip bigint, OUT bound timestamptz, OUT remaining bigint
) LANGUAGE plpgsql STABLE AS $$
DECLARE
  first_day timestamptz;
  end_day timestamptz;
  passed bigint;
  page_day date;
  earlier_than_page_day bigint;
BEGIN
  bound := CASE WHEN descending THEN 'infinity'::timestamptz ELSE '-infinity'::timestamptz END;
  remaining := skip;
  SELECT d.first_day, d.end_day INTO first_day, end_day FROM whole_utc_days_between(lo, hi) d;
  IF first_day >= end_day THEN
    RETURN;
  END IF;
  -- The orders of the partial day the ordering starts in, before the whole days.
  IF descending AND hi IS NOT NULL THEN
    passed := count_orders_matching(org, end_day, hi, hi_inclusive, event, refunded, source, method);
  ELSIF NOT descending AND lo IS NOT NULL THEN
    passed := count_orders_matching(org, lo, first_day, false, event, refunded, source, method);
  ELSE
    passed := 0;
  END IF;
  IF passed > skip THEN
    RETURN;
  END IF;
  -- The page starts in the last whole day, in the ordering, whose earlier whole days hold at most skip - passed
  -- orders (a day of 0 orders tied with the next gives the same page).
  SELECT w.day, w.earlier INTO page_day, earlier_than_page_day FROM (
    SELECT m.day, coalesce(sum(m.order_count) OVER (
      ORDER BY CASE WHEN descending THEN m.day END DESC, m.day ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ), 0) AS earlier
    FROM order_days_matching(org, (first_day AT TIME ZONE 'UTC')::date, (end_day AT TIME ZONE 'UTC')::date, event, refunded, source, method) m
  ) w
  WHERE w.earlier <= skip - passed
  ORDER BY w.earlier DESC
  LIMIT 1;
  IF page_day IS NOT NULL THEN
    bound := (CASE WHEN descending THEN page_day + 1 ELSE page_day END)::timestamp AT TIME ZONE 'UTC';
    remaining := skip - passed - earlier_than_page_day;
  END IF;
END $$;
