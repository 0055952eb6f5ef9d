-- order_daily_counts (orders per organization and UTC day, summed over its slots, see order-counter-slot.sql)
-- follows every insert, delete and truncate of
-- orders in the same transaction, like organization_order_counts: one statement per statement, rows
-- aggregated from the transition table, visited in key order so that writers sharing a slot lock the day
-- rows in the same order. This file: inserts add to (or create) the day rows.
CREATE OR REPLACE FUNCTION orders_daily_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_daily_counts AS c (organization_id, day, slot, order_count)
  SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, order_counter_slot(true), count(*)
  FROM inserted_orders GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (organization_id, day, slot) DO UPDATE SET order_count = c.order_count + excluded.order_count;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_daily_count_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS inserted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_daily_count_inserted();
