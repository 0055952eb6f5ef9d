-- organization_order_counts (orders per organization, summed over its slots, see order-counter-slot.sql)
-- follows every insert, delete and truncate of orders (including bulk inserts, COPY and cascades) in the same
-- transaction, so it is exact. Statement-level triggers with transition tables cost one upsert per statement,
-- not per row. This file: inserts add the number of new orders per organization.
CREATE OR REPLACE FUNCTION orders_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO organization_order_counts AS c (organization_id, slot, order_count)
  SELECT organization_id, order_counter_slot(true), count(*)
  FROM inserted_orders GROUP BY 1 ORDER BY 1
  ON CONFLICT (organization_id, slot) DO UPDATE SET order_count = c.order_count + excluded.order_count;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_count_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS inserted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_count_inserted();
