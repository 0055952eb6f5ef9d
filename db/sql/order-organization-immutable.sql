-- Orders never move between organizations; refuse it rather than let organizations.order_count and
-- order_daily_counts drift.
CREATE OR REPLACE FUNCTION orders_organization_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'orders.organization_id cannot change' USING ERRCODE = 'check_violation';
END $$;

CREATE OR REPLACE TRIGGER orders_organization_immutable BEFORE UPDATE OF organization_id ON orders
  FOR EACH ROW WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION orders_organization_immutable();
