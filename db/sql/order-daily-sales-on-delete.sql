-- order_daily_sales (lib/analytics/summary.ts) follows every write to orders and order_items in the same
-- transaction, like order_daily_counts: statement-level where a transition table tells the change, rows
-- aggregated and upserted in key order so that concurrent writers lock the sales rows in the same order.
-- Tickets are added by the order_items triggers only (an order's row comes first, its items after, possibly
-- in the same statement), so no write counts them twice.
-- This file: a deleted order takes its figures with it. Row-level and BEFORE: a deleted order's items are
-- still there to say how many tickets leave with it (the cascade removes them before any AFTER trigger on
-- orders runs). Orders are deleted only with their organization or in tests, so the per-row cost is not on
-- any hot path.
CREATE OR REPLACE FUNCTION orders_daily_sales_deleting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE order_daily_sales s
     SET order_count = s.order_count - 1,
         ticket_count = s.ticket_count - coalesce((SELECT sum(i.quantity) FROM order_items i WHERE i.order_id = OLD.id), 0),
         revenue = s.revenue - OLD.total_price
   WHERE s.organization_id = OLD.organization_id AND s.day = (OLD.created_at AT TIME ZONE 'UTC')::date
     AND s.event_id = OLD.event_id AND s.order_source = OLD.order_source
     AND s.payment_method = OLD.payment_method AND s.is_refunded = OLD.is_refunded;
  RETURN OLD;
END $$;

CREATE OR REPLACE TRIGGER orders_daily_sales_delete BEFORE DELETE ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_daily_sales_deleting();
