-- order_daily_ticket_sales (lib/analytics/summary.ts, group_by=ticket_type) follows every write to orders and
-- order_items in the same transaction, like order_daily_sales (slots summed by readers, see
-- order-counter-slot.sql): per order and ticket type it holds the order once (under each type it holds),
-- the tickets and the items' value (quantity × unit price), keyed by the order's day, event, channel, payment
-- method and refund state. Statement-level where a transition table tells the change, rows aggregated and
-- upserted in key order so that writers sharing a slot lock the rows in the same order.
-- This file: a refund (or a change of the order's event, channel or payment method) moves the order's
-- figures under each of its ticket types from one row to another.
CREATE OR REPLACE FUNCTION orders_daily_ticket_sales_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT o.id, o.organization_id, (o.created_at AT TIME ZONE 'UTC')::date AS day,
           o.event_id AS old_event, o.order_source AS old_source, o.payment_method AS old_method, o.is_refunded AS old_refunded,
           n.event_id AS new_event, n.order_source AS new_source, n.payment_method AS new_method, n.is_refunded AS new_refunded
    FROM old_orders o JOIN new_orders n ON n.id = o.id
    WHERE (o.event_id, o.order_source, o.payment_method, o.is_refunded)
          IS DISTINCT FROM (n.event_id, n.order_source, n.payment_method, n.is_refunded)
  ), per_type AS (
    SELECT c.*, i.ticket_type_id, sum(i.quantity) AS tickets, sum(i.quantity::bigint * i.unit_price) AS value
    FROM changed c JOIN order_items i ON i.order_id = c.id
    GROUP BY c.id, c.organization_id, c.day, c.old_event, c.old_source, c.old_method, c.old_refunded,
             c.new_event, c.new_source, c.new_method, c.new_refunded, i.ticket_type_id
  ), deltas AS (
    SELECT organization_id, day, ticket_type_id, old_event AS event_id, old_source AS order_source,
           old_method AS payment_method, old_refunded AS is_refunded, -1 AS orders, -tickets AS tickets, -value AS revenue
    FROM per_type
    UNION ALL
    SELECT organization_id, day, ticket_type_id, new_event, new_source, new_method, new_refunded, 1, tickets, value
    FROM per_type
  )
  INSERT INTO order_daily_ticket_sales AS s
    (organization_id, day, ticket_type_id, event_id, order_source, payment_method, is_refunded, slot,
     order_count, ticket_count, revenue)
  SELECT organization_id, day, ticket_type_id, event_id, order_source, payment_method, is_refunded, order_counter_slot(false),
         sum(orders), sum(tickets), sum(revenue)
  FROM deltas GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (organization_id, day, ticket_type_id, event_id, order_source, payment_method, is_refunded, slot) DO UPDATE
    SET order_count = s.order_count + excluded.order_count,
        ticket_count = s.ticket_count + excluded.ticket_count,
        revenue = s.revenue + excluded.revenue;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_daily_ticket_sales_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_daily_ticket_sales_updated();
