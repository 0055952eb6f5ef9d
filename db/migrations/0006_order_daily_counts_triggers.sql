-- order_daily_counts follows every insert, delete and truncate of orders in the same transaction, like
-- organizations.order_count (0003): one statement per statement, rows aggregated from the transition
-- table, visited in key order so that concurrent writers lock the day rows in the same order.
CREATE OR REPLACE FUNCTION orders_daily_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_daily_counts AS c (organization_id, day, order_count)
  SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, count(*)
  FROM inserted_orders GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (organization_id, day) DO UPDATE SET order_count = c.order_count + excluded.order_count;
  RETURN NULL;
END $$;
--> statement-breakpoint
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_daily_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_daily_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_daily_count_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS inserted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_daily_count_inserted();
--> statement-breakpoint
CREATE TRIGGER orders_daily_count_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS deleted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_daily_count_deleted();
--> statement-breakpoint
CREATE TRIGGER orders_daily_count_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION orders_daily_count_truncated();
--> statement-breakpoint
-- When an order was placed is a fact; refusing a change keeps the day counts exact (PostgreSQL allows no
-- transition tables on column-specific UPDATE triggers, so moving counts between days is not an option).
CREATE OR REPLACE FUNCTION orders_created_at_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'orders.created_at cannot change' USING ERRCODE = 'check_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_created_at_immutable BEFORE UPDATE OF created_at ON orders
  FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION orders_created_at_immutable();
--> statement-breakpoint
-- The exact number of an organization's orders with lo <= created_at < hi (<= hi when hi_inclusive); a
-- null bound is open. Whole UTC days come from order_daily_counts; only the partial days at either end
-- are counted row by row, through orders_org_created_idx.
CREATE OR REPLACE FUNCTION count_orders_created_between(org uuid, lo timestamptz, hi timestamptz, hi_inclusive boolean)
RETURNS bigint LANGUAGE plpgsql STABLE AS $$
DECLARE
  first_day timestamptz := coalesce(date_trunc('day', lo, 'UTC'), '-infinity');
  end_day timestamptz := coalesce(date_trunc('day', hi, 'UTC'), 'infinity');
  total bigint := 0;
  edge bigint;
BEGIN
  IF first_day < lo THEN
    first_day := first_day + interval '1 day';
  END IF;
  IF first_day >= end_day THEN
    -- Less than one whole day between the bounds: count the rows.
    first_day := coalesce(lo, '-infinity');
    end_day := first_day;
  ELSE
    SELECT coalesce(sum(order_count), 0) INTO total FROM order_daily_counts
    WHERE organization_id = org
      AND day >= (first_day AT TIME ZONE 'UTC')::date AND day < (end_day AT TIME ZONE 'UTC')::date;
    IF lo IS NOT NULL THEN
      SELECT count(*) INTO edge FROM orders
      WHERE organization_id = org AND created_at >= lo AND created_at < first_day;
      total := total + edge;
    END IF;
  END IF;
  IF hi IS NOT NULL THEN
    IF hi_inclusive THEN
      SELECT count(*) INTO edge FROM orders
      WHERE organization_id = org AND created_at >= greatest(end_day, lo) AND created_at <= hi;
    ELSE
      SELECT count(*) INTO edge FROM orders
      WHERE organization_id = org AND created_at >= greatest(end_day, lo) AND created_at < hi;
    END IF;
    total := total + edge;
  END IF;
  RETURN total;
END $$;
--> statement-breakpoint
INSERT INTO order_daily_counts (organization_id, day, order_count)
SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, count(*) FROM orders GROUP BY 1, 2;
