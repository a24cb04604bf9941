CREATE TABLE "idempotency_keys" (
	"project_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"request_id" uuid NOT NULL,
	"answer" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_project_id_key_pk" PRIMARY KEY("project_id","key")
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "api_request_id" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "data" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "to_address" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_api_cause_uq" ON "messages" USING btree ("project_id","api_request_id");