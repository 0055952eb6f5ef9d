-- order_email_word_orders gets each order's lower-cased customer name, INCLUDEd in its primary key (drizzle-kit
-- cannot express INCLUDE; db/schema/orders.ts notes it), so the transactions search leaves out the e-mail matches
-- that the name already matched by testing the name in the index. The table is written anew rather than updated
-- in place, which would leave a dead copy of every row behind; autovacuum sets its visibility map afterwards, as
-- for any bulk insert. add_order_email_words takes the names from now on (migration 0042); its old signature
-- goes here, since CREATE OR REPLACE with another argument list would leave it beside the new one.
DROP FUNCTION add_order_email_words(uuid[], uuid[], text[]);--> statement-breakpoint
CREATE TABLE "order_email_word_orders_next" AS
  SELECT m.word_id, m.order_id, lower(o.customer_name) AS lower_customer_name
  FROM "order_email_word_orders" m JOIN "orders" o ON o.id = m.order_id
  ORDER BY m.word_id, m.order_id;--> statement-breakpoint
DROP TABLE "order_email_word_orders";--> statement-breakpoint
ALTER TABLE "order_email_word_orders_next" RENAME TO "order_email_word_orders";--> statement-breakpoint
ALTER TABLE "order_email_word_orders" ALTER COLUMN "word_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_email_word_orders" ALTER COLUMN "order_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_email_word_orders" ALTER COLUMN "lower_customer_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_email_word_orders" ADD CONSTRAINT "order_email_word_orders_word_id_order_id_pk"
  PRIMARY KEY ("word_id", "order_id") INCLUDE ("lower_customer_name");
