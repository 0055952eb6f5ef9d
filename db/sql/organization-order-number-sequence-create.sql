-- Order numbers come from one sequence per organization (order_numbers_<id without dashes>, see
-- next_order_number), created with the organization: taking a number locks no row, so concurrent orders of
-- one organization do not queue behind each other until commit. Numbers are unique and increasing per
-- organization; a rolled-back order leaves a gap, as any sequence does.
CREATE OR REPLACE FUNCTION organization_order_numbers_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE SEQUENCE IF NOT EXISTS %I AS integer', 'order_numbers_' || replace(NEW.id::text, '-', ''));
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER organization_order_numbers_create AFTER INSERT ON organizations
  FOR EACH ROW EXECUTE FUNCTION organization_order_numbers_created();
