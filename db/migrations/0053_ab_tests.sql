CREATE TABLE "ab_decisions" (
	"project_id" uuid NOT NULL,
	"owner_kind" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"step_key" text DEFAULT '' NOT NULL,
	"looks" integer DEFAULT 0 NOT NULL,
	"winner" smallint,
	"chance" double precision,
	"decided_at" timestamp with time zone,
	"look_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ab_decisions_project_id_owner_kind_owner_id_step_key_pk" PRIMARY KEY("project_id","owner_kind","owner_id","step_key")
);
--> statement-breakpoint
CREATE TABLE "journey_split_entries" (
	"project_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"step_key" text NOT NULL,
	"journey_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"path" smallint NOT NULL,
	"entered_at" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone,
	"clicked_at" timestamp with time zone,
	"converted_at" timestamp with time zone,
	CONSTRAINT "journey_split_entries_project_id_entry_id_step_key_pk" PRIMARY KEY("project_id","entry_id","step_key")
);
--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "variants" jsonb;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "test" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "variant" smallint;--> statement-breakpoint
ALTER TABLE "ab_decisions" ADD CONSTRAINT "ab_decisions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_split_entries" ADD CONSTRAINT "journey_split_entries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_split_entries" ADD CONSTRAINT "journey_split_entries_project_id_entry_id_journey_entries_project_id_id_fk" FOREIGN KEY ("project_id","entry_id") REFERENCES "public"."journey_entries"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "journey_split_entries_user_idx" ON "journey_split_entries" USING btree ("project_id","user_id","journey_id");