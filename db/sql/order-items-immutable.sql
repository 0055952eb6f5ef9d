-- Tickets (and, per ticket type, the items' value) are counted in order_daily_sales and
-- order_daily_ticket_sales when items are inserted. An order's items are its purchase record: what is
-- counted of them never changes and they leave only with their order (whose BEFORE DELETE triggers take
-- them out), which this trigger enforces, so the counts need no UPDATE or DELETE path for items.
CREATE OR REPLACE FUNCTION order_items_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- During the cascade from a deleted order that order is no longer visible; otherwise the order still holds the item.
  IF TG_OP = 'UPDATE' OR EXISTS (SELECT 1 FROM orders o WHERE o.id = OLD.order_id) THEN
    RAISE EXCEPTION 'order_items are changed only with their order' USING ERRCODE = 'check_violation';
  END IF;
  RETURN OLD;
END $$;

CREATE OR REPLACE TRIGGER order_items_immutable BEFORE UPDATE OF quantity, order_id, ticket_type_id, unit_price OR DELETE ON order_items
  FOR EACH ROW EXECUTE FUNCTION order_items_immutable();
