-- order_customer_names gets each name's order count, in slots (db/schema/orders.ts), counted anew from orders into
-- slot 0 (names no order has any more are left out); the triggers of migration 0047 keep it from now on.
-- order_email_word_orders gets letters_in_name from email_word_letters_in_name (0047), and the partial index of the rows
-- where it is false, which INCLUDEs the sort keys as the primary key does (drizzle-kit cannot express INCLUDE);
-- order_email_words gets unnamed_orders, true for the words that have such rows.
ALTER TABLE "order_customer_names" DROP CONSTRAINT "order_customer_names_organization_id_name_pk";--> statement-breakpoint
ALTER TABLE "order_customer_names" ADD COLUMN "slot" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_customer_names" ADD COLUMN "order_count" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
DELETE FROM "order_customer_names";--> statement-breakpoint
INSERT INTO "order_customer_names" ("organization_id", "name", "slot", "order_count")
  SELECT "organization_id", lower("customer_name"), 0, count(*) FROM "orders" GROUP BY 1, 2;--> statement-breakpoint
ALTER TABLE "order_customer_names" ADD CONSTRAINT "order_customer_names_organization_id_name_slot_pk" PRIMARY KEY("organization_id","name","slot");--> statement-breakpoint
ALTER TABLE "order_email_word_orders" ADD COLUMN "letters_in_name" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "order_email_word_orders" m SET "letters_in_name" = true
  FROM "order_email_words" w WHERE w.id = m.word_id AND email_word_letters_in_name(w.word, m.lower_customer_name);--> statement-breakpoint
ALTER TABLE "order_email_words" ADD COLUMN "unnamed_orders" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "order_email_words" w SET "unnamed_orders" = true
  WHERE EXISTS (SELECT 1 FROM "order_email_word_orders" m WHERE m.word_id = w.id AND NOT m.letters_in_name);--> statement-breakpoint
CREATE INDEX "order_email_word_orders_unnamed_idx" ON "order_email_word_orders" USING btree ("word_id","order_id")
  INCLUDE ("lower_customer_name", "created_at", "total_price") WHERE not "order_email_word_orders"."letters_in_name";
