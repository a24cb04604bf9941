CREATE TABLE "journey_entry_steps" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"entry_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"journey_id" uuid NOT NULL,
	"step_key" text NOT NULL,
	"kind" text NOT NULL,
	"entered_at" timestamp with time zone NOT NULL,
	"left_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	CONSTRAINT "journey_entry_steps_project_id_entry_id_seq_pk" PRIMARY KEY("project_id","entry_id","seq")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "timezone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "journey_entries" ADD COLUMN "step_key" text;--> statement-breakpoint
ALTER TABLE "journey_entries" ADD COLUMN "state" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "journey_entries" ADD COLUMN "wake_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "journey_entries" ADD COLUMN "waiting_for" jsonb;--> statement-breakpoint
ALTER TABLE "journey_entries" ADD COLUMN "wait_event" text;--> statement-breakpoint
ALTER TABLE "journey_entries" ADD COLUMN "wait_key" text;--> statement-breakpoint
ALTER TABLE "journey_entries" ADD COLUMN "step_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "journeys" ADD COLUMN "steps" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "journeys" ADD COLUMN "paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "journey_entry_steps" ADD CONSTRAINT "journey_entry_steps_project_id_entry_id_journey_entries_project_id_id_fk" FOREIGN KEY ("project_id","entry_id") REFERENCES "public"."journey_entries"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "journey_entry_steps_step_idx" ON "journey_entry_steps" USING btree ("project_id","journey_id","step_key");--> statement-breakpoint
CREATE INDEX "journey_entry_steps_user_idx" ON "journey_entry_steps" USING btree ("project_id","user_id","left_at","id");--> statement-breakpoint
CREATE INDEX "journey_entries_due_idx" ON "journey_entries" USING btree ("wake_at") WHERE "journey_entries"."wake_at" is not null;--> statement-breakpoint
CREATE INDEX "journey_entries_wait_idx" ON "journey_entries" USING btree ("project_id","wait_event","wait_key") WHERE "journey_entries"."wait_event" is not null;--> statement-breakpoint
CREATE INDEX "journey_entries_step_idx" ON "journey_entries" USING btree ("project_id","journey_id","step_key") WHERE "journey_entries"."step_key" is not null;