ALTER TABLE "webhook_integrations" ADD COLUMN "previous_signing_secret" text;--> statement-breakpoint
ALTER TABLE "webhook_integrations" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_integrations" ADD COLUMN "description" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_integrations" ADD COLUMN "deleted_at" timestamp with time zone;