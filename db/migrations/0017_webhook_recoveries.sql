CREATE TABLE "webhook_recoveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"window_since" timestamp with time zone NOT NULL,
	"window_until" timestamp with time zone NOT NULL,
	"queued" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_recoveries_window_check" CHECK ("webhook_recoveries"."window_since" < "webhook_recoveries"."window_until")
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "recovery_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_recoveries" ADD CONSTRAINT "webhook_recoveries_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_recoveries" ADD CONSTRAINT "webhook_recoveries_integration_id_webhook_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."webhook_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_recoveries" ADD CONSTRAINT "webhook_recoveries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_recoveries_integration_idx" ON "webhook_recoveries" USING btree ("organization_id","integration_id","created_at");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_recovery_id_webhook_recoveries_id_fk" FOREIGN KEY ("recovery_id") REFERENCES "public"."webhook_recoveries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_recovery_idx" ON "webhook_deliveries" USING btree ("recovery_id","status") WHERE recovery_id is not null;