-- order_daily_ticket_sales (lib/analytics/summary.ts, group_by=ticket_type) follows every write to orders and
-- order_items in the same transaction, like order_daily_sales (slots summed by readers, see
-- order-counter-slot.sql): per order and ticket type it holds the order once (under each type it holds),
-- the tickets and the items' value (quantity × unit price), keyed by the order's day, event, channel, payment
-- method and refund state. Statement-level where a transition table tells the change, rows aggregated and
-- upserted in key order so that writers sharing a slot lock the rows in the same order.
-- This file: a deleted order takes its figures with it. Row-level and BEFORE, as for order_daily_sales: the
-- deleted order's items are still there to say what leaves under which ticket type. An organization being
-- deleted takes its rows with it, so its orders are left out.
CREATE OR REPLACE FUNCTION orders_daily_ticket_sales_deleting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_daily_ticket_sales AS s
    (organization_id, day, ticket_type_id, event_id, order_source, payment_method, is_refunded, slot,
     order_count, ticket_count, revenue)
  SELECT OLD.organization_id, (OLD.created_at AT TIME ZONE 'UTC')::date, i.ticket_type_id, OLD.event_id, OLD.order_source,
         OLD.payment_method, OLD.is_refunded, order_counter_slot(false),
         -1, -sum(i.quantity), -sum(i.quantity::bigint * i.unit_price)
  FROM order_items i
  WHERE i.order_id = OLD.id AND EXISTS (SELECT 1 FROM organizations o WHERE o.id = OLD.organization_id)
  GROUP BY i.ticket_type_id ORDER BY i.ticket_type_id
  ON CONFLICT (organization_id, day, ticket_type_id, event_id, order_source, payment_method, is_refunded, slot) DO UPDATE
    SET order_count = s.order_count + excluded.order_count,
        ticket_count = s.ticket_count + excluded.ticket_count,
        revenue = s.revenue + excluded.revenue;
  RETURN OLD;
END $$;

CREATE OR REPLACE TRIGGER orders_daily_ticket_sales_delete BEFORE DELETE ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_daily_ticket_sales_deleting();
