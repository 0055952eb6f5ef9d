-- order_daily_sales (lib/analytics/summary.ts) follows every write to orders and order_items in the same
-- transaction, like order_daily_counts (slots summed by readers, see order-counter-slot.sql): statement-level
-- where a transition table tells the change, rows aggregated and upserted in key order so that writers
-- sharing a slot lock the sales rows in the same order.
-- Tickets are added by the order_items triggers only (an order's row comes first, its items after, possibly
-- in the same statement), so no write counts them twice.
-- This file: truncating orders empties the table.
CREATE OR REPLACE FUNCTION orders_daily_sales_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_daily_sales;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_daily_sales_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION orders_daily_sales_truncated();
