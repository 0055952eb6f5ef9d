-- organizations.order_count (see organization-order-count-on-insert.sql): deletes, including cascades,
-- subtract the number of removed orders per organization.
CREATE OR REPLACE FUNCTION orders_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organizations o SET order_count = o.order_count - d.removed
  FROM (SELECT organization_id, count(*) AS removed FROM deleted_orders GROUP BY organization_id) d
  WHERE o.id = d.organization_id;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_count_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS deleted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_count_deleted();
