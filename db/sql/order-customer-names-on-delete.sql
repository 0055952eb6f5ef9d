-- order_customer_names (see order-customer-names-on-insert.sql): deletes, including cascades, subtract from the
-- names' counts (an organization being deleted takes its rows with it, so its orders are left out).
CREATE OR REPLACE FUNCTION orders_customer_names_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_customer_names AS c (organization_id, name, slot, order_count)
  SELECT d.organization_id, lower(d.customer_name), order_customer_name_slot(false), -count(*)
  FROM deleted_orders d WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = d.organization_id)
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (organization_id, name, slot) DO UPDATE SET order_count = c.order_count + excluded.order_count;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_customer_names_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS deleted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_customer_names_deleted();
