-- order_daily_facet_counts (see order-facet-count-on-insert.sql): deletes, including cascades, subtract
-- from the rows.
CREATE OR REPLACE FUNCTION orders_facet_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE order_daily_facet_counts c SET order_count = c.order_count - d.removed
  FROM (
    SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date AS day, event_id, is_refunded, count(*) AS removed
    FROM deleted_orders GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ) d
  WHERE c.organization_id = d.organization_id AND c.day = d.day AND c.event_id = d.event_id AND c.is_refunded = d.is_refunded;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER orders_facet_count_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS deleted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_facet_count_deleted();
