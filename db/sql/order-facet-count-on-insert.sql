-- order_daily_facet_counts (orders per organization, UTC day, event and refund state, summed over its slots,
-- see order-counter-slot.sql) follows every insert, update, delete and truncate of orders in the same transaction, like order_daily_counts: one statement per
-- statement, rows aggregated from the transition tables, visited in key order so that concurrent writers
-- lock the count rows in the same order. This file: inserts add to (or create) the rows.
CREATE OR REPLACE FUNCTION orders_facet_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_daily_facet_counts AS c (organization_id, day, event_id, is_refunded, slot, order_count)
  SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, event_id, is_refunded, order_counter_slot(true), count(*)
  FROM inserted_orders GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (organization_id, day, event_id, is_refunded, slot) DO UPDATE SET order_count = c.order_count + excluded.order_count;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_facet_count_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS inserted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_facet_count_inserted();
