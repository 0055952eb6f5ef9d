-- order_daily_ticket_sales (lib/analytics/summary.ts, group_by=ticket_type) follows every write to orders and
-- order_items in the same transaction, like order_daily_sales (slots summed by readers, see
-- order-counter-slot.sql): per order and ticket type it holds the order once (under each type it holds),
-- the tickets and the items' value (quantity × unit price), keyed by the order's day, event, channel, payment
-- method and refund state. Statement-level where a transition table tells the change, rows aggregated and
-- upserted in key order so that writers sharing a slot lock the rows in the same order.
-- This file: truncating orders, or their items alone, leaves no cart item to count.
CREATE OR REPLACE FUNCTION order_daily_ticket_sales_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_daily_ticket_sales;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_daily_ticket_sales_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION order_daily_ticket_sales_truncated();

CREATE OR REPLACE TRIGGER order_items_daily_ticket_sales_truncate AFTER TRUNCATE ON order_items
  FOR EACH STATEMENT EXECUTE FUNCTION order_daily_ticket_sales_truncated();
