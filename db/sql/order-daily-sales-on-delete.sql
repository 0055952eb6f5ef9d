-- order_daily_sales (lib/analytics/summary.ts) follows every write to orders and order_items in the same
-- transaction, like order_daily_counts (slots summed by readers, see order-counter-slot.sql): statement-level
-- where a transition table tells the change, rows aggregated and upserted in key order so that writers
-- sharing a slot lock the sales rows in the same order.
-- Tickets are added by the order_items triggers only (an order's row comes first, its items after, possibly
-- in the same statement), so no write counts them twice.
-- This file: a deleted order takes its figures with it. Row-level and BEFORE: a deleted order's items are
-- still there to say how many tickets leave with it (the cascade removes them before any AFTER trigger on
-- orders runs). Orders are deleted only with their organization or in tests, so the per-row cost is not on
-- any hot path; an organization being deleted takes its rows with it, so its orders are left out.
CREATE OR REPLACE FUNCTION orders_daily_sales_deleting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_daily_sales AS s
    (organization_id, day, event_id, order_source, payment_method, is_refunded, slot, order_count, ticket_count, revenue)
  SELECT OLD.organization_id, (OLD.created_at AT TIME ZONE 'UTC')::date, OLD.event_id, OLD.order_source,
         OLD.payment_method, OLD.is_refunded, order_counter_slot(false), -1,
         -coalesce((SELECT sum(i.quantity) FROM order_items i WHERE i.order_id = OLD.id), 0), -OLD.total_price
  WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = OLD.organization_id)
  ON CONFLICT (organization_id, day, event_id, order_source, payment_method, is_refunded, slot) DO UPDATE
    SET order_count = s.order_count + excluded.order_count,
        ticket_count = s.ticket_count + excluded.ticket_count,
        revenue = s.revenue + excluded.revenue;
  RETURN OLD;
END $$;

CREATE OR REPLACE TRIGGER orders_daily_sales_delete BEFORE DELETE ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_daily_sales_deleting();
