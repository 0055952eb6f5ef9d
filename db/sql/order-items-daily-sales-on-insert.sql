-- order_daily_sales (lib/analytics/summary.ts) follows every write to orders and order_items in the same
-- transaction, like order_daily_counts (slots summed by readers, see order-counter-slot.sql): statement-level
-- where a transition table tells the change, rows aggregated and upserted in key order so that writers
-- sharing a slot lock the sales rows in the same order.
-- Tickets are added by the order_items triggers only (an order's row comes first, its items after, possibly
-- in the same statement), so no write counts them twice.
-- This file: inserted cart items add their tickets.
CREATE OR REPLACE FUNCTION order_items_daily_sales_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_daily_sales AS s
    (organization_id, day, event_id, order_source, payment_method, is_refunded, slot, order_count, ticket_count, revenue)
  SELECT o.organization_id, (o.created_at AT TIME ZONE 'UTC')::date, o.event_id, o.order_source, o.payment_method,
         o.is_refunded, order_counter_slot(true), 0, sum(i.quantity), 0
  FROM inserted_items i JOIN orders o ON o.id = i.order_id
  GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (organization_id, day, event_id, order_source, payment_method, is_refunded, slot) DO UPDATE
    SET ticket_count = s.ticket_count + excluded.ticket_count;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER order_items_daily_sales_insert AFTER INSERT ON order_items
  REFERENCING NEW TABLE AS inserted_items FOR EACH STATEMENT EXECUTE FUNCTION order_items_daily_sales_inserted();
