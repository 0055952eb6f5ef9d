ALTER TABLE "webhook_attempts" ADD COLUMN "request_url" text;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "request_method" text;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "request_headers" jsonb;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "response_headers" jsonb;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_org_order_idx" ON "webhook_deliveries" USING btree ("organization_id","order_id") WHERE order_id is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_redelivery_of_idx" ON "webhook_deliveries" USING btree ("redelivery_of") WHERE redelivery_of is not null;