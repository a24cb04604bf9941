CREATE TABLE "event_created_records" (
	"project_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"record_id" uuid NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_created_records_project_id_event_id_pk" PRIMARY KEY("project_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "list_changes" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"list_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"change" text NOT NULL,
	"cause" text NOT NULL,
	"cause_event_id" uuid,
	"actor" jsonb,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "list_changes_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
DROP INDEX "journey_entries_user_idx";--> statement-breakpoint
ALTER TABLE "event_created_records" ADD CONSTRAINT "event_created_records_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_changes" ADD CONSTRAINT "list_changes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "list_changes_user_idx" ON "list_changes" USING btree ("project_id","user_id","at","id");--> statement-breakpoint
CREATE INDEX "list_changes_list_user_idx" ON "list_changes" USING btree ("project_id","list_id","user_id","at");--> statement-breakpoint
CREATE INDEX "list_changes_event_idx" ON "list_changes" USING btree ("project_id","cause_event_id");--> statement-breakpoint
CREATE INDEX "events_user_name_idx" ON "events" USING btree ("project_id","user_id","name","occurred_at") WHERE "events"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "journey_entries_user_exit_idx" ON "journey_entries" USING btree ("project_id","user_id","exited_at","id") WHERE "journey_entries"."exited_at" is not null;--> statement-breakpoint
CREATE INDEX "journey_entries_event_idx" ON "journey_entries" USING btree ("project_id","event_id");--> statement-breakpoint
CREATE INDEX "journey_entries_user_idx" ON "journey_entries" USING btree ("project_id","user_id","entered_at","id");