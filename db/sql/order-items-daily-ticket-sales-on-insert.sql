-- order_daily_ticket_sales (lib/analytics/summary.ts, group_by=ticket_type) follows every write to orders and
-- order_items in the same transaction, like order_daily_sales (slots summed by readers, see
-- order-counter-slot.sql): per order and ticket type it holds the order once (under each type it holds),
-- the tickets and the items' value (quantity × unit price), keyed by the order's day, event, channel, payment
-- method and refund state. Statement-level where a transition table tells the change, rows aggregated and
-- upserted in key order so that writers sharing a slot lock the rows in the same order.
-- This file: inserted cart items add their tickets and value, and their order under each ticket type that
-- the order held no item of before this statement (items normally arrive in one statement with their order).
-- That look-up must go by the order_items_order_idx index: a plan made while order_items looked small (a fresh
-- database, a bulk import in one transaction) could scan the whole table for every order, and the session keeps
-- the plan, so sequential scans are off while this function runs. Nor may it go by order_items_ticket_type_idx,
-- which with a handful of ticket types returns a share of the whole table for every order, so that a bulk seed
-- went quadratic (EXPLAIN ANALYZE of a 50,000-order seed chunk: 109 s of its 140 s in this trigger, 6 s of 36 s
-- after): so the look-up's condition is the order alone, and the ticket type only filters the order's few items.
CREATE OR REPLACE FUNCTION order_items_daily_ticket_sales_inserted() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off AS $$
BEGIN
  INSERT INTO order_daily_ticket_sales AS s
    (organization_id, day, ticket_type_id, event_id, order_source, payment_method, is_refunded, slot,
     order_count, ticket_count, revenue)
  SELECT o.organization_id, (o.created_at AT TIME ZONE 'UTC')::date, i.ticket_type_id, o.event_id, o.order_source,
         o.payment_method, o.is_refunded, order_counter_slot(true),
         count(*) FILTER (WHERE i.first_of_type), sum(i.tickets), sum(i.value)
  FROM (
    SELECT n.order_id, n.ticket_type_id, sum(n.quantity) AS tickets, sum(n.quantity::bigint * n.unit_price) AS value,
           count(*) = (SELECT count(*) FILTER (WHERE x.ticket_type_id = n.ticket_type_id) FROM order_items x WHERE x.order_id = n.order_id)
             AS first_of_type
    FROM inserted_items n GROUP BY n.order_id, n.ticket_type_id
  ) i JOIN orders o ON o.id = i.order_id
  GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (organization_id, day, ticket_type_id, event_id, order_source, payment_method, is_refunded, slot) DO UPDATE
    SET order_count = s.order_count + excluded.order_count,
        ticket_count = s.ticket_count + excluded.ticket_count,
        revenue = s.revenue + excluded.revenue;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER order_items_daily_ticket_sales_insert AFTER INSERT ON order_items
  REFERENCING NEW TABLE AS inserted_items FOR EACH STATEMENT EXECUTE FUNCTION order_items_daily_ticket_sales_inserted();
