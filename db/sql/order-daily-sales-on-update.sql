-- order_daily_sales (lib/analytics/summary.ts) follows every write to orders and order_items in the same
-- transaction, like order_daily_counts (slots summed by readers, see order-counter-slot.sql): statement-level
-- where a transition table tells the change, rows aggregated and upserted in key order so that writers
-- sharing a slot lock the sales rows in the same order.
-- Tickets are added by the order_items triggers only (an order's row comes first, its items after, possibly
-- in the same statement), so no write counts them twice.
-- This file: a refund (or any change of a counted column) moves the order, with its tickets, from one
-- sales row to another.
CREATE OR REPLACE FUNCTION orders_daily_sales_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT o.id, o.organization_id, (o.created_at AT TIME ZONE 'UTC')::date AS day,
           o.event_id AS old_event, o.order_source AS old_source, o.payment_method AS old_method,
           o.is_refunded AS old_refunded, o.total_price AS old_total,
           n.event_id AS new_event, n.order_source AS new_source, n.payment_method AS new_method,
           n.is_refunded AS new_refunded, n.total_price AS new_total
    FROM old_orders o JOIN new_orders n ON n.id = o.id
    WHERE (o.event_id, o.order_source, o.payment_method, o.is_refunded, o.total_price)
          IS DISTINCT FROM (n.event_id, n.order_source, n.payment_method, n.is_refunded, n.total_price)
  ), with_tickets AS (
    SELECT c.*, coalesce((SELECT sum(i.quantity) FROM order_items i WHERE i.order_id = c.id), 0) AS tickets
    FROM changed c
  ), deltas AS (
    SELECT organization_id, day, old_event AS event_id, old_source AS order_source, old_method AS payment_method,
           old_refunded AS is_refunded, -1 AS orders, -tickets AS tickets, -old_total AS revenue
    FROM with_tickets
    UNION ALL
    SELECT organization_id, day, new_event, new_source, new_method, new_refunded, 1, tickets, new_total
    FROM with_tickets
  )
  INSERT INTO order_daily_sales AS s
    (organization_id, day, event_id, order_source, payment_method, is_refunded, slot, order_count, ticket_count, revenue)
  SELECT organization_id, day, event_id, order_source, payment_method, is_refunded, order_counter_slot(false),
         sum(orders), sum(tickets), sum(revenue)
  FROM deltas GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (organization_id, day, event_id, order_source, payment_method, is_refunded, slot) DO UPDATE
    SET order_count = s.order_count + excluded.order_count,
        ticket_count = s.ticket_count + excluded.ticket_count,
        revenue = s.revenue + excluded.revenue;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_daily_sales_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_daily_sales_updated();
