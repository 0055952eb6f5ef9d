-- organization_order_counts (see organization-order-count-on-insert.sql): deletes, including cascades,
-- subtract the number of removed orders per organization. An organization being deleted takes its counts
-- with it (and could not be referenced by a new count row), so its orders are left out.
CREATE OR REPLACE FUNCTION orders_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO organization_order_counts AS c (organization_id, slot, order_count)
  SELECT d.organization_id, order_counter_slot(false), -count(*)
  FROM deleted_orders d WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = d.organization_id)
  GROUP BY 1 ORDER BY 1
  ON CONFLICT (organization_id, slot) DO UPDATE SET order_count = c.order_count + excluded.order_count;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_count_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS deleted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_count_deleted();
