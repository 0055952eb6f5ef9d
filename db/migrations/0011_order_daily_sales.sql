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
-- Existing orders, then their tickets; the triggers (db/sql/order-daily-sales-*.sql, next migration) keep it from here.
INSERT INTO order_daily_sales
  (organization_id, day, event_id, order_source, payment_method, is_refunded, order_count, ticket_count, revenue)
SELECT o.organization_id, (o.created_at AT TIME ZONE 'UTC')::date, o.event_id, o.order_source, o.payment_method, o.is_refunded,
       count(*), coalesce(sum(i.tickets), 0), sum(o.total_price)
FROM orders o
LEFT JOIN (SELECT order_id, sum(quantity) AS tickets FROM order_items GROUP BY order_id) i ON i.order_id = o.id
GROUP BY 1, 2, 3, 4, 5, 6;
