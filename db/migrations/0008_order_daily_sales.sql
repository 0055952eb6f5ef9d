CREATE TABLE "order_daily_sales" (
	"organization_id" uuid NOT NULL,
	"day" date NOT NULL,
	"event_id" uuid NOT NULL,
	"order_source" text NOT NULL,
	"payment_method" text NOT NULL,
	"is_refunded" boolean NOT NULL,
	"order_count" bigint NOT NULL,
	"ticket_count" bigint NOT NULL,
	"revenue" bigint NOT NULL,
	CONSTRAINT "order_daily_sales_organization_id_day_event_id_order_source_payment_method_is_refunded_pk" PRIMARY KEY("organization_id","day","event_id","order_source","payment_method","is_refunded")
);
--> statement-breakpoint
ALTER TABLE "order_daily_sales" ADD CONSTRAINT "order_daily_sales_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- order_daily_sales follows every write to orders and order_items in the same transaction, like
-- order_daily_counts (0006): statement-level where a transition table tells the change, rows aggregated
-- and upserted in key order so that concurrent writers lock the sales rows in the same order. Tickets are
-- added by the order_items triggers only (an order's row comes first, its items after, possibly in the same
-- statement), so no write counts them twice.
CREATE OR REPLACE FUNCTION orders_daily_sales_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_daily_sales AS s
    (organization_id, day, event_id, order_source, payment_method, is_refunded, order_count, ticket_count, revenue)
  SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, event_id, order_source, payment_method, is_refunded,
         count(*), 0, sum(total_price)
  FROM inserted_orders GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (organization_id, day, event_id, order_source, payment_method, is_refunded) DO UPDATE
    SET order_count = s.order_count + excluded.order_count, revenue = s.revenue + excluded.revenue;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A refund (or any change of a counted column) moves the order, with its tickets, from one sales row to another.
CREATE OR REPLACE FUNCTION orders_daily_sales_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT o.id, o.organization_id, (o.created_at AT TIME ZONE 'UTC')::date AS day,
           o.event_id AS old_event, o.order_source AS old_source, o.payment_method AS old_method,
           o.is_refunded AS old_refunded, o.total_price AS old_total,
           n.event_id AS new_event, n.order_source AS new_source, n.payment_method AS new_method,
           n.is_refunded AS new_refunded, n.total_price AS new_total
    FROM old_orders o JOIN new_orders n ON n.id = o.id
    WHERE (o.event_id, o.order_source, o.payment_method, o.is_refunded, o.total_price)
          IS DISTINCT FROM (n.event_id, n.order_source, n.payment_method, n.is_refunded, n.total_price)
  ), with_tickets AS (
    SELECT c.*, coalesce((SELECT sum(i.quantity) FROM order_items i WHERE i.order_id = c.id), 0) AS tickets
    FROM changed c
  ), deltas AS (
    SELECT organization_id, day, old_event AS event_id, old_source AS order_source, old_method AS payment_method,
           old_refunded AS is_refunded, -1 AS orders, -tickets AS tickets, -old_total AS revenue
    FROM with_tickets
    UNION ALL
    SELECT organization_id, day, new_event, new_source, new_method, new_refunded, 1, tickets, new_total
    FROM with_tickets
  )
  INSERT INTO order_daily_sales AS s
    (organization_id, day, event_id, order_source, payment_method, is_refunded, order_count, ticket_count, revenue)
  SELECT organization_id, day, event_id, order_source, payment_method, is_refunded, sum(orders), sum(tickets), sum(revenue)
  FROM deltas GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (organization_id, day, event_id, order_source, payment_method, is_refunded) DO UPDATE
    SET order_count = s.order_count + excluded.order_count,
        ticket_count = s.ticket_count + excluded.ticket_count,
        revenue = s.revenue + excluded.revenue;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Row-level and BEFORE: a deleted order's items are still there to say how many tickets leave with it
-- (the cascade removes them before any AFTER trigger on orders runs). Orders are deleted only with their
-- organization or in tests, so the per-row cost is not on any hot path.
CREATE OR REPLACE FUNCTION orders_daily_sales_deleting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE order_daily_sales s
     SET order_count = s.order_count - 1,
         ticket_count = s.ticket_count - coalesce((SELECT sum(i.quantity) FROM order_items i WHERE i.order_id = OLD.id), 0),
         revenue = s.revenue - OLD.total_price
   WHERE s.organization_id = OLD.organization_id AND s.day = (OLD.created_at AT TIME ZONE 'UTC')::date
     AND s.event_id = OLD.event_id AND s.order_source = OLD.order_source
     AND s.payment_method = OLD.payment_method AND s.is_refunded = OLD.is_refunded;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_daily_sales_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_daily_sales;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Tickets are counted when items are inserted. An order's items are its purchase record: they never change
-- and leave only with their order (whose BEFORE DELETE trigger takes their tickets out), which the two
-- triggers below enforce, so the counts need no UPDATE or DELETE path for items.
CREATE OR REPLACE FUNCTION order_items_daily_sales_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_daily_sales AS s
    (organization_id, day, event_id, order_source, payment_method, is_refunded, order_count, ticket_count, revenue)
  SELECT o.organization_id, (o.created_at AT TIME ZONE 'UTC')::date, o.event_id, o.order_source, o.payment_method,
         o.is_refunded, 0, sum(i.quantity), 0
  FROM inserted_items i JOIN orders o ON o.id = i.order_id
  GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (organization_id, day, event_id, order_source, payment_method, is_refunded) DO UPDATE
    SET ticket_count = s.ticket_count + excluded.ticket_count;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_items_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- During the cascade from a deleted order that order is no longer visible; otherwise the order still holds the item.
  IF TG_OP = 'UPDATE' OR EXISTS (SELECT 1 FROM orders o WHERE o.id = OLD.order_id) THEN
    RAISE EXCEPTION 'order_items are changed only with their order' USING ERRCODE = 'check_violation';
  END IF;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_daily_sales_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS inserted_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_daily_sales_inserted();
--> statement-breakpoint
CREATE TRIGGER orders_daily_sales_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION orders_daily_sales_updated();
--> statement-breakpoint
CREATE TRIGGER orders_daily_sales_delete BEFORE DELETE ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_daily_sales_deleting();
--> statement-breakpoint
CREATE TRIGGER orders_daily_sales_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION orders_daily_sales_truncated();
--> statement-breakpoint
CREATE TRIGGER order_items_daily_sales_insert AFTER INSERT ON order_items
  REFERENCING NEW TABLE AS inserted_items FOR EACH STATEMENT EXECUTE FUNCTION order_items_daily_sales_inserted();
--> statement-breakpoint
CREATE TRIGGER order_items_immutable BEFORE UPDATE OF quantity, order_id OR DELETE ON order_items
  FOR EACH ROW EXECUTE FUNCTION order_items_immutable();
--> statement-breakpoint
-- Existing orders, then their tickets.
INSERT INTO order_daily_sales
  (organization_id, day, event_id, order_source, payment_method, is_refunded, order_count, ticket_count, revenue)
SELECT o.organization_id, (o.created_at AT TIME ZONE 'UTC')::date, o.event_id, o.order_source, o.payment_method, o.is_refunded,
       count(*), coalesce(sum(i.tickets), 0), sum(o.total_price)
FROM orders o
LEFT JOIN (SELECT order_id, sum(quantity) AS tickets FROM order_items GROUP BY order_id) i ON i.order_id = o.id
GROUP BY 1, 2, 3, 4, 5, 6;
