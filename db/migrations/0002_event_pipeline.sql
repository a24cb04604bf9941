CREATE TABLE "event_client_ids" (
	"project_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_client_ids_project_id_client_id_pk" PRIMARY KEY("project_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "event_fanouts" (
	"project_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"match" jsonb NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"client_id" text,
	"occurred_at" timestamp (3) with time zone NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL,
	"cursor" uuid,
	"delivered" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "event_fanouts_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "event_intake" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"identifier" jsonb,
	"match" jsonb,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"client_id" text,
	"occurred_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"recorded" boolean DEFAULT false NOT NULL,
	"failed_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "event_intake_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "event_schema" (
	"project_id" uuid NOT NULL,
	"event_name" text NOT NULL,
	"path" text NOT NULL,
	"types" text[] NOT NULL,
	"count" bigint NOT NULL,
	"first_seen" timestamp (3) with time zone NOT NULL,
	"last_seen" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "event_schema_project_id_event_name_path_pk" PRIMARY KEY("project_id","event_name","path")
);
--> statement-breakpoint
CREATE TABLE "job_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "job_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"queue" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pipeline_steps_done" (
	"project_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"step" text NOT NULL,
	"done_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pipeline_steps_done_project_id_batch_id_step_pk" PRIMARY KEY("project_id","batch_id","step")
);
--> statement-breakpoint
CREATE TABLE "list_members" (
	"project_id" uuid NOT NULL,
	"list_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "list_members_project_id_list_id_user_id_pk" PRIMARY KEY("project_id","list_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "lists" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"rules" jsonb,
	"event_names" text[] DEFAULT '{}'::text[] NOT NULL,
	"windowed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lists_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "journey_entrances" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"journey_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"event_name" text,
	"condition" jsonb,
	"user_rule" jsonb,
	"schedule_id" uuid,
	"schedule_offset_id" uuid,
	"data_key" text NOT NULL,
	CONSTRAINT "journey_entrances_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "journey_entries" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"journey_id" uuid NOT NULL,
	"entrance_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"context" jsonb NOT NULL,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"exited_at" timestamp with time zone,
	CONSTRAINT "journey_entries_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "journeys" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"name" text NOT NULL,
	"allow_multiple_entries" boolean DEFAULT false NOT NULL,
	"allow_concurrent_runs" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journeys_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
ALTER TABLE "event_fanouts" ADD CONSTRAINT "event_fanouts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_schema" ADD CONSTRAINT "event_schema_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_members" ADD CONSTRAINT "list_members_project_id_list_id_lists_project_id_id_fk" FOREIGN KEY ("project_id","list_id") REFERENCES "public"."lists"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_members" ADD CONSTRAINT "list_members_project_id_user_id_users_project_id_id_fk" FOREIGN KEY ("project_id","user_id") REFERENCES "public"."users"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lists" ADD CONSTRAINT "lists_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_entrances" ADD CONSTRAINT "journey_entrances_project_id_journey_id_journeys_project_id_id_fk" FOREIGN KEY ("project_id","journey_id") REFERENCES "public"."journeys"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_entries" ADD CONSTRAINT "journey_entries_project_id_journey_id_journeys_project_id_id_fk" FOREIGN KEY ("project_id","journey_id") REFERENCES "public"."journeys"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_entries" ADD CONSTRAINT "journey_entries_project_id_user_id_users_project_id_id_fk" FOREIGN KEY ("project_id","user_id") REFERENCES "public"."users"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journeys" ADD CONSTRAINT "journeys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_client_ids_received_idx" ON "event_client_ids" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "event_fanouts_open_idx" ON "event_fanouts" USING btree ("project_id") WHERE "event_fanouts"."finished_at" is null;--> statement-breakpoint
CREATE INDEX "event_intake_failed_idx" ON "event_intake" USING btree ("project_id","failed_at") WHERE "event_intake"."failed_at" is not null;--> statement-breakpoint
CREATE INDEX "pipeline_steps_done_at_idx" ON "pipeline_steps_done" USING btree ("done_at");--> statement-breakpoint
CREATE INDEX "list_members_user_idx" ON "list_members" USING btree ("project_id","user_id");--> statement-breakpoint
CREATE INDEX "lists_event_names_gin" ON "lists" USING gin ("event_names");--> statement-breakpoint
CREATE INDEX "journey_entrances_event_idx" ON "journey_entrances" USING btree ("project_id","event_name");--> statement-breakpoint
CREATE INDEX "journey_entrances_schedule_idx" ON "journey_entrances" USING btree ("project_id","schedule_id","schedule_offset_id");--> statement-breakpoint
CREATE UNIQUE INDEX "journey_entries_event_uq" ON "journey_entries" USING btree ("project_id","journey_id","user_id","event_id");--> statement-breakpoint
CREATE INDEX "journey_entries_user_idx" ON "journey_entries" USING btree ("project_id","user_id");