CREATE TABLE "journey_edits" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"journey_id" uuid NOT NULL,
	"before" jsonb NOT NULL,
	"keys" jsonb NOT NULL,
	"cursor_key" text,
	"cursor_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journey_edits_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
DROP INDEX "journey_entries_step_idx";--> statement-breakpoint
ALTER TABLE "journey_edits" ADD CONSTRAINT "journey_edits_project_id_journey_id_journeys_project_id_id_fk" FOREIGN KEY ("project_id","journey_id") REFERENCES "public"."journeys"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "journey_entries_step_idx" ON "journey_entries" USING btree ("project_id","journey_id","step_key","id") WHERE "journey_entries"."step_key" is not null;