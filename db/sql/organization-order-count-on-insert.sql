-- organizations.order_count follows every insert, delete and truncate of orders (including bulk inserts,
-- COPY and cascades) in the same transaction, so it is exact. Statement-level triggers with transition
-- tables cost one UPDATE per statement, not per row; order creation already locks the organization row.
-- This file: inserts add the number of new orders per organization.
CREATE OR REPLACE FUNCTION orders_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organizations o SET order_count = o.order_count + n.added
  FROM (SELECT organization_id, count(*) AS added FROM inserted_orders GROUP BY organization_id) n
  WHERE o.id = n.organization_id;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_count_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS inserted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_count_inserted();
