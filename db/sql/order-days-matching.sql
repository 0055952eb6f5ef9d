-- order_days_matching(org, first_day, end_day, event, refunded, source, method): an organization's orders per UTC
-- day, first_day <= day < end_day, with the transactions search's event, refund, channel and payment method filters
-- (a null filter matches any), from the finest trigger-kept table the filters need: order_daily_counts without
-- filters, order_daily_facet_counts for event and refund state, order_daily_sales once a channel or payment method
-- is set. A day without such orders may be missing or 0. count_orders_matching sums these days and
-- order_date_page_start walks them.
CREATE OR REPLACE FUNCTION order_days_matching(
  org uuid, first_day date, end_day date, event uuid, refunded boolean, source text, method text
) RETURNS TABLE (day date, order_count bigint) LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF source IS NOT NULL OR method IS NOT NULL THEN
    RETURN QUERY SELECT s.day, sum(s.order_count)::bigint FROM order_daily_sales s
    WHERE s.organization_id = org AND s.day >= first_day AND s.day < end_day
      AND (event IS NULL OR s.event_id = event) AND (refunded IS NULL OR s.is_refunded = refunded)
      AND (source IS NULL OR s.order_source = source) AND (method IS NULL OR s.payment_method = method)
    GROUP BY s.day;
  ELSIF event IS NOT NULL OR refunded IS NOT NULL THEN
    RETURN QUERY SELECT f.day, sum(f.order_count)::bigint FROM order_daily_facet_counts f
    WHERE f.organization_id = org AND f.day >= first_day AND f.day < end_day
      AND (event IS NULL OR f.event_id = event) AND (refunded IS NULL OR f.is_refunded = refunded)
    GROUP BY f.day;
  ELSE
    RETURN QUERY SELECT c.day, sum(c.order_count)::bigint FROM order_daily_counts c
    WHERE c.organization_id = org AND c.day >= first_day AND c.day < end_day
    GROUP BY c.day;
  END IF;
END $$;
