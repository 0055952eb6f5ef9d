-- order_daily_sales (lib/analytics/summary.ts) follows every write to orders and order_items in the same
-- transaction, like order_daily_counts (slots summed by readers, see order-counter-slot.sql): statement-level
-- where a transition table tells the change, rows aggregated and upserted in key order so that writers
-- sharing a slot lock the sales rows in the same order.
-- Tickets are added by the order_items triggers only (an order's row comes first, its items after, possibly
-- in the same statement), so no write counts them twice.
-- This file: inserted orders add their orders and revenue.
CREATE OR REPLACE FUNCTION orders_daily_sales_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_daily_sales AS s
    (organization_id, day, event_id, order_source, payment_method, is_refunded, slot, order_count, ticket_count, revenue)
  SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, event_id, order_source, payment_method, is_refunded,
         order_counter_slot(true), count(*), 0, sum(total_price)
  FROM inserted_orders GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (organization_id, day, event_id, order_source, payment_method, is_refunded, slot) DO UPDATE
    SET order_count = s.order_count + excluded.order_count, revenue = s.revenue + excluded.revenue;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_daily_sales_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS inserted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_daily_sales_inserted();
