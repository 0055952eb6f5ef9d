-- The organization's order number sequence (see organization-order-number-sequence-create.sql) goes with it.
CREATE OR REPLACE FUNCTION organization_order_numbers_dropped() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DROP SEQUENCE IF EXISTS %I', 'order_numbers_' || replace(OLD.id::text, '-', ''));
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER organization_order_numbers_drop AFTER DELETE ON organizations
  FOR EACH ROW EXECUTE FUNCTION organization_order_numbers_dropped();
