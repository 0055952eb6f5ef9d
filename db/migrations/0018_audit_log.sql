CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" uuid,
	"actor_label" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"target_label" text,
	"ip_address" text,
	"user_agent" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "audit_log_actor_type_check" CHECK ("audit_log"."actor_type" in ('user','api_key','system'))
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_organization_created_idx" ON "audit_log" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_organization_action_idx" ON "audit_log" USING btree ("organization_id","action","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_organization_actor_idx" ON "audit_log" USING btree ("organization_id","actor_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
-- From db/sql/audit-log-append-only.sql (as npm run db:sql writes it): change that file, not this one.
-- The audit log is append-only: no entry is ever changed, and one is deleted only once it is older than the
-- retention, which the deleting transaction declares with set_config('audit_log.retention_days', …, true)
-- (lib/audit/retention; 365 when it declares none, never under 1), or when its organization is deleted (the
-- cascade, during which that organization is no longer visible). TRUNCATE stays possible for the table's
-- owner: it is the operator's tool, not the application's, and the tests reset every table with it.
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  retention_days integer := greatest(1, coalesce(nullif(current_setting('audit_log.retention_days', true), '')::integer, 365));
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'audit_log is append-only: entries cannot be changed' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF OLD.created_at >= now() - make_interval(days => retention_days)
     AND (OLD.organization_id IS NULL OR EXISTS (SELECT 1 FROM organizations o WHERE o.id = OLD.organization_id)) THEN
    RAISE EXCEPTION 'audit_log is append-only: entries younger than % days cannot be deleted', retention_days
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
