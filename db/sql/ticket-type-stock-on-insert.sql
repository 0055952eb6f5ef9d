-- ticket_type_stock follows ticket_types: a new ticket type's quantity_total is all unsold, spread over its
-- buckets (ticket-type-stock-spread.sql), whoever inserts it (API, demo data, tests, bulk seeds).
CREATE OR REPLACE FUNCTION ticket_type_stock_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_type_stock_spread(NEW.id, NEW.quantity_total);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER ticket_type_stock_create AFTER INSERT ON ticket_types
  FOR EACH ROW EXECUTE FUNCTION ticket_type_stock_created();
