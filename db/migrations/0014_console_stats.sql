CREATE TABLE "api_requests" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"key_id" uuid NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" smallint NOT NULL,
	"duration_ms" integer NOT NULL,
	"request_id" text NOT NULL,
	"errors" jsonb,
	"body" text,
	CONSTRAINT "api_requests_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "project_rollups" (
	"project_id" uuid NOT NULL,
	"metric" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "project_rollups_project_id_metric_minute_pk" PRIMARY KEY("project_id","metric","minute")
);
--> statement-breakpoint
ALTER TABLE "api_requests" ADD CONSTRAINT "api_requests_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_rollups" ADD CONSTRAINT "project_rollups_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_requests_key_idx" ON "api_requests" USING btree ("project_id","key_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "api_requests_at_idx" ON "api_requests" USING btree ("at");