-- ticket_type_stock follows ticket_types: a capacity change adds (or takes) the difference to the unsold
-- tickets, re-spread over the buckets, with every bucket locked in order (as take_tickets' slow path does) so
-- that no concurrent order takes a ticket meanwhile. Below the tickets already sold it fails (check_violation).
CREATE OR REPLACE FUNCTION ticket_type_stock_resized() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unsold integer;
BEGIN
  SELECT coalesce(sum(s.available), 0) INTO unsold
  FROM (SELECT available FROM ticket_type_stock WHERE ticket_type_id = NEW.id ORDER BY bucket FOR UPDATE) s;
  PERFORM ticket_type_stock_spread(NEW.id, unsold + NEW.quantity_total - OLD.quantity_total);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER ticket_type_stock_resize AFTER UPDATE OF quantity_total ON ticket_types
  FOR EACH ROW WHEN (OLD.quantity_total IS DISTINCT FROM NEW.quantity_total)
  EXECUTE FUNCTION ticket_type_stock_resized();
