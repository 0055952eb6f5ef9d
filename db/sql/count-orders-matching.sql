-- count_orders_matching(org, lo, hi, hi_inclusive, event, refunded, source, method): the exact number of an
-- organization's orders with lo <= created_at < hi (<= hi when hi_inclusive) and the transactions search's
-- event, refund, channel and payment method filters (a null bound is open; a null filter matches any). Whole
-- UTC days come from the trigger-kept per-day counters (order_days_matching); only the partial days at either
-- end are counted row by row, through orders_org_created_idx.
CREATE OR REPLACE FUNCTION count_orders_matching(
  org uuid, lo timestamptz, hi timestamptz, hi_inclusive boolean, event uuid, refunded boolean, source text, method text
) RETURNS bigint LANGUAGE plpgsql STABLE AS $$
DECLARE
  first_day timestamptz;
  end_day timestamptz;
  total bigint := 0;
  edge bigint;
BEGIN
  SELECT d.first_day, d.end_day INTO first_day, end_day FROM whole_utc_days_between(lo, hi) d;
  -- With less than one whole day between the bounds, both edges below count the rows.
  IF first_day < end_day THEN
    SELECT coalesce(sum(m.order_count), 0) INTO total
    FROM order_days_matching(org, (first_day AT TIME ZONE 'UTC')::date, (end_day AT TIME ZONE 'UTC')::date, event, refunded, source, method) m;
    IF lo IS NOT NULL THEN
      SELECT count(*) INTO edge FROM orders
      WHERE organization_id = org AND created_at >= lo AND created_at < first_day
        AND (event IS NULL OR event_id = event) AND (refunded IS NULL OR is_refunded = refunded)
        AND (source IS NULL OR order_source = source) AND (method IS NULL OR payment_method = method);
      total := total + edge;
    END IF;
  END IF;
  IF hi IS NOT NULL THEN
    -- Two statements, so that each bounds the index range on both sides.
    IF hi_inclusive THEN
      SELECT count(*) INTO edge FROM orders
      WHERE organization_id = org AND created_at >= greatest(end_day, lo) AND created_at <= hi
        AND (event IS NULL OR event_id = event) AND (refunded IS NULL OR is_refunded = refunded)
        AND (source IS NULL OR order_source = source) AND (method IS NULL OR payment_method = method);
    ELSE
      SELECT count(*) INTO edge FROM orders
      WHERE organization_id = org AND created_at >= greatest(end_day, lo) AND created_at < hi
        AND (event IS NULL OR event_id = event) AND (refunded IS NULL OR is_refunded = refunded)
        AND (source IS NULL OR order_source = source) AND (method IS NULL OR payment_method = method);
    END IF;
    total := total + edge;
  END IF;
  RETURN total;
END $$;
