ALTER TABLE "webhook_integrations" ADD COLUMN "retry_schedule" text DEFAULT 'immediate' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_integrations" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "webhook_integrations" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_finished_created_idx" ON "webhook_deliveries" USING btree ("created_at") WHERE status in ('Success','PermanentlyFailed');--> statement-breakpoint
ALTER TABLE "webhook_integrations" ADD CONSTRAINT "webhook_integrations_retry_schedule_check" CHECK ("webhook_integrations"."retry_schedule" in ('immediate','nominal'));--> statement-breakpoint
ALTER TABLE "webhook_integrations" ADD CONSTRAINT "webhook_integrations_disabled_reason_check" CHECK ("webhook_integrations"."disabled_reason" in ('failing'));