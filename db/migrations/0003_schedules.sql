CREATE TABLE "schedule_assignments" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"schedule_id" uuid NOT NULL,
	"user_id" uuid,
	"organization_id" uuid,
	"state" text DEFAULT 'active' NOT NULL,
	"interval" text,
	"anchor" timestamp (3) with time zone NOT NULL,
	"cycle" integer DEFAULT 0 NOT NULL,
	"occurrence_at" timestamp (3) with time zone NOT NULL,
	"pause_mode" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedule_assignments_project_id_id_pk" PRIMARY KEY("project_id","id"),
	CONSTRAINT "schedule_assignments_subject_check" CHECK (("schedule_assignments"."user_id" is null) <> ("schedule_assignments"."organization_id" is null))
);
--> statement-breakpoint
CREATE TABLE "schedule_firings" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"assignment_id" uuid NOT NULL,
	"offset_id" uuid NOT NULL,
	"cycle" integer NOT NULL,
	"fire_at" timestamp (3) with time zone NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"fired_at" timestamp (3) with time zone,
	"event_id" uuid,
	CONSTRAINT "schedule_firings_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "schedule_offsets" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"schedule_id" uuid NOT NULL,
	"offset" text NOT NULL,
	"offset_key" text NOT NULL,
	"direction" text NOT NULL,
	"backfill" text,
	"backfill_cursor" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedule_offsets_project_id_id_pk" PRIMARY KEY("project_id","id"),
	CONSTRAINT "schedule_offsets_direction_check" CHECK ("schedule_offsets"."direction" in ('before', 'after'))
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"builtin" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedules_project_id_id_pk" PRIMARY KEY("project_id","id"),
	CONSTRAINT "schedules_type_check" CHECK ("schedules"."type" in ('single', 'recurring'))
);
--> statement-breakpoint
ALTER TABLE "schedule_assignments" ADD CONSTRAINT "schedule_assignments_project_id_schedule_id_schedules_project_id_id_fk" FOREIGN KEY ("project_id","schedule_id") REFERENCES "public"."schedules"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_assignments" ADD CONSTRAINT "schedule_assignments_project_id_user_id_users_project_id_id_fk" FOREIGN KEY ("project_id","user_id") REFERENCES "public"."users"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_assignments" ADD CONSTRAINT "schedule_assignments_project_id_organization_id_organizations_project_id_id_fk" FOREIGN KEY ("project_id","organization_id") REFERENCES "public"."organizations"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_firings" ADD CONSTRAINT "schedule_firings_project_id_assignment_id_schedule_assignments_project_id_id_fk" FOREIGN KEY ("project_id","assignment_id") REFERENCES "public"."schedule_assignments"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_firings" ADD CONSTRAINT "schedule_firings_project_id_offset_id_schedule_offsets_project_id_id_fk" FOREIGN KEY ("project_id","offset_id") REFERENCES "public"."schedule_offsets"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_offsets" ADD CONSTRAINT "schedule_offsets_project_id_schedule_id_schedules_project_id_id_fk" FOREIGN KEY ("project_id","schedule_id") REFERENCES "public"."schedules"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_assignments_user_key" ON "schedule_assignments" USING btree ("project_id","user_id","schedule_id") WHERE "schedule_assignments"."user_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_assignments_org_key" ON "schedule_assignments" USING btree ("project_id","organization_id","schedule_id") WHERE "schedule_assignments"."organization_id" is not null;--> statement-breakpoint
CREATE INDEX "schedule_assignments_schedule_idx" ON "schedule_assignments" USING btree ("project_id","schedule_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_firings_key" ON "schedule_firings" USING btree ("project_id","assignment_id","offset_id","cycle");--> statement-breakpoint
CREATE INDEX "schedule_firings_due_idx" ON "schedule_firings" USING btree ("fire_at") WHERE "schedule_firings"."state" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_offsets_key" ON "schedule_offsets" USING btree ("project_id","schedule_id","offset_key","direction");--> statement-breakpoint
CREATE UNIQUE INDEX "schedules_name_key" ON "schedules" USING btree ("project_id","name");