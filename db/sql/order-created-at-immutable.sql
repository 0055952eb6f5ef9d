-- When an order was placed is a fact; refusing a change keeps order_daily_counts exact (PostgreSQL allows
-- no transition tables on column-specific UPDATE triggers, so moving counts between days is not an option).
CREATE OR REPLACE FUNCTION orders_created_at_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'orders.created_at cannot change' USING ERRCODE = 'check_violation';
END $$;

CREATE OR REPLACE TRIGGER orders_created_at_immutable BEFORE UPDATE OF created_at ON orders
  FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION orders_created_at_immutable();
