-- organizations.order_count follows every insert and delete of orders (including bulk inserts, COPY and
-- cascades) in the same transaction, so it is exact. Statement-level triggers with transition tables
-- cost one UPDATE per statement, not per row; order creation already locks the organization row.
CREATE OR REPLACE FUNCTION orders_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organizations o SET order_count = o.order_count + n.added
  FROM (SELECT organization_id, count(*) AS added FROM inserted_orders GROUP BY organization_id) n
  WHERE o.id = n.organization_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organizations o SET order_count = o.order_count - d.removed
  FROM (SELECT organization_id, count(*) AS removed FROM deleted_orders GROUP BY organization_id) d
  WHERE o.id = d.organization_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organizations SET order_count = 0 WHERE order_count <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_count_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS inserted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_count_inserted();
--> statement-breakpoint
CREATE TRIGGER orders_count_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS deleted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_count_deleted();
--> statement-breakpoint
CREATE TRIGGER orders_count_truncate AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION orders_count_truncated();
--> statement-breakpoint
-- Orders never move between organizations; refuse it rather than let the counts drift.
CREATE OR REPLACE FUNCTION orders_organization_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'orders.organization_id cannot change' USING ERRCODE = 'check_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_organization_immutable BEFORE UPDATE OF organization_id ON orders
  FOR EACH ROW WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION orders_organization_immutable();
--> statement-breakpoint
UPDATE organizations o SET order_count = (SELECT count(*) FROM orders WHERE orders.organization_id = o.id);
