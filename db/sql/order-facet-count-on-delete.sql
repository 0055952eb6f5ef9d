-- order_daily_facet_counts (see order-facet-count-on-insert.sql): deletes, including cascades, subtract
-- from the rows (an organization being deleted takes its rows with it, so its orders are left out).
CREATE OR REPLACE FUNCTION orders_facet_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_daily_facet_counts AS c (organization_id, day, event_id, is_refunded, slot, order_count)
  SELECT d.organization_id, (d.created_at AT TIME ZONE 'UTC')::date, d.event_id, d.is_refunded, order_counter_slot(false), -count(*)
  FROM deleted_orders d WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = d.organization_id)
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (organization_id, day, event_id, is_refunded, slot) DO UPDATE SET order_count = c.order_count + excluded.order_count;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_facet_count_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS deleted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_facet_count_deleted();
