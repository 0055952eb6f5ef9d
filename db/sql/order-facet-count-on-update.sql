-- order_daily_facet_counts (see order-facet-count-on-insert.sql): an update that refunds an order (or moves
-- it to another event) moves one count from its old row to its new one. organization_id and created_at
-- cannot change (order-organization-immutable.sql, order-created-at-immutable.sql). A column list is not
-- possible here: PostgreSQL allows no transition tables on column-specific UPDATE triggers.
CREATE OR REPLACE FUNCTION orders_facet_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_daily_facet_counts AS c (organization_id, day, event_id, is_refunded, slot, order_count)
  SELECT organization_id, day, event_id, is_refunded, order_counter_slot(false), sum(change)
  FROM (
    SELECT o.organization_id, (o.created_at AT TIME ZONE 'UTC')::date AS day, o.event_id, o.is_refunded, -1 AS change
    FROM old_orders o JOIN new_orders n ON n.id = o.id
    WHERE (o.event_id, o.is_refunded) IS DISTINCT FROM (n.event_id, n.is_refunded)
    UNION ALL
    SELECT n.organization_id, (n.created_at AT TIME ZONE 'UTC')::date, n.event_id, n.is_refunded, 1
    FROM old_orders o JOIN new_orders n ON n.id = o.id
    WHERE (o.event_id, o.is_refunded) IS DISTINCT FROM (n.event_id, n.is_refunded)
  ) moved
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (organization_id, day, event_id, is_refunded, slot) DO UPDATE SET order_count = c.order_count + excluded.order_count;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_facet_count_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_facet_count_updated();
