CREATE TABLE "request_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "request_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" uuid NOT NULL,
	"api_key_id" uuid NOT NULL,
	"trace_id" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"query" text NOT NULL,
	"status" integer NOT NULL,
	"duration_ms" double precision NOT NULL,
	"client_ip" text,
	"user_agent" text,
	"request_body" text,
	"request_body_truncated" boolean DEFAULT false NOT NULL,
	"created_resource" text,
	"order_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_log_trace_idx" ON "request_log" USING btree ("organization_id","trace_id");--> statement-breakpoint
CREATE INDEX "request_log_org_time_idx" ON "request_log" USING btree ("organization_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_log_org_status_class_idx" ON "request_log" USING btree ("organization_id",("status" / 100),"created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_log_org_key_idx" ON "request_log" USING btree ("organization_id","api_key_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_log_org_path_idx" ON "request_log" USING btree ("organization_id","path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "request_log_created_idx" ON "request_log" USING btree ("created_at");