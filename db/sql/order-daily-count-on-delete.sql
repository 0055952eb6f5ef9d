-- order_daily_counts (see order-daily-count-on-insert.sql): deletes, including cascades, subtract from the
-- day rows.
CREATE OR REPLACE FUNCTION orders_daily_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE order_daily_counts c SET order_count = c.order_count - d.removed
  FROM (
    SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS removed
    FROM deleted_orders GROUP BY 1, 2 ORDER BY 1, 2
  ) d
  WHERE c.organization_id = d.organization_id AND c.day = d.day;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_daily_count_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS deleted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_daily_count_deleted();
