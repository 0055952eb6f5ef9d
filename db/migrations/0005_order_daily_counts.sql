CREATE TABLE "order_daily_counts" (
	"organization_id" uuid NOT NULL,
	"day" date NOT NULL,
	"order_count" bigint NOT NULL,
	CONSTRAINT "order_daily_counts_organization_id_day_pk" PRIMARY KEY("organization_id","day")
);
--> statement-breakpoint
ALTER TABLE "order_daily_counts" ADD CONSTRAINT "order_daily_counts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;