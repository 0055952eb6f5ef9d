-- count_orders_created_between(org, lo, hi, hi_inclusive): the exact number of an organization's orders
-- with lo <= created_at < hi (<= hi when hi_inclusive); a null bound is open. Whole UTC days come from
-- order_daily_counts; only the partial days at either end are counted row by row, through
-- orders_org_created_idx. Used by the transactions search for its totals.
CREATE OR REPLACE FUNCTION count_orders_created_between(org uuid, lo timestamptz, hi timestamptz, hi_inclusive boolean)
RETURNS bigint LANGUAGE plpgsql STABLE AS $$
DECLARE
  first_day timestamptz;
  end_day timestamptz;
  total bigint := 0;
  edge bigint;
BEGIN
  SELECT d.first_day, d.end_day INTO first_day, end_day FROM whole_utc_days_between(lo, hi) d;
  -- With less than one whole day between the bounds, both edges below count the rows.
  IF first_day < end_day THEN
    SELECT coalesce(sum(order_count), 0) INTO total FROM order_daily_counts
    WHERE organization_id = org
      AND day >= (first_day AT TIME ZONE 'UTC')::date AND day < (end_day AT TIME ZONE 'UTC')::date;
    IF lo IS NOT NULL THEN
      SELECT count(*) INTO edge FROM orders
      WHERE organization_id = org AND created_at >= lo AND created_at < first_day;
      total := total + edge;
    END IF;
  END IF;
  IF hi IS NOT NULL THEN
    IF hi_inclusive THEN
      SELECT count(*) INTO edge FROM orders
      WHERE organization_id = org AND created_at >= greatest(end_day, lo) AND created_at <= hi;
    ELSE
      SELECT count(*) INTO edge FROM orders
      WHERE organization_id = org AND created_at >= greatest(end_day, lo) AND created_at < hi;
    END IF;
    total := total + edge;
  END IF;
  RETURN total;
END $$;
