-- order_email_word_orders gets each order's created_at and total_price beside its lower-cased name, all three
-- INCLUDEd in its primary key (drizzle-kit cannot express INCLUDE; db/schema/orders.ts notes it), so the
-- transactions search sorts, counts and date-filters the e-mail matches there instead of visiting each in orders.
-- Written anew rather than updated in place, as in migration 0041. add_order_email_words takes the two from now on
-- (the next migration, from db/sql); its old signature goes here, since CREATE OR REPLACE with another argument
-- list would leave it beside the new one.
DROP FUNCTION add_order_email_words(uuid[], uuid[], text[], text[]);--> statement-breakpoint
CREATE TABLE "order_email_word_orders_next" AS
  SELECT m.word_id, m.order_id, m.lower_customer_name, o.created_at, o.total_price
  FROM "order_email_word_orders" m JOIN "orders" o ON o.id = m.order_id
  ORDER BY m.word_id, m.order_id;--> statement-breakpoint
DROP TABLE "order_email_word_orders";--> statement-breakpoint
ALTER TABLE "order_email_word_orders_next" RENAME TO "order_email_word_orders";--> statement-breakpoint
ALTER TABLE "order_email_word_orders" ALTER COLUMN "word_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_email_word_orders" ALTER COLUMN "order_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_email_word_orders" ALTER COLUMN "lower_customer_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_email_word_orders" ALTER COLUMN "created_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_email_word_orders" ALTER COLUMN "total_price" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_email_word_orders" ADD CONSTRAINT "order_email_word_orders_word_id_order_id_pk"
  PRIMARY KEY ("word_id", "order_id") INCLUDE ("lower_customer_name", "created_at", "total_price");
