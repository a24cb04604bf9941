CREATE TABLE "broadcasts" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"name" text NOT NULL,
	"template_id" uuid NOT NULL,
	"list_id" uuid NOT NULL,
	"send_at" timestamp with time zone NOT NULL,
	"in_user_timezone" boolean DEFAULT false NOT NULL,
	"rate_per_second" integer,
	"state" text DEFAULT 'scheduled' NOT NULL,
	"recipients" integer,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broadcasts_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "message_providers" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"channel" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"from" text NOT NULL,
	"config" jsonb NOT NULL,
	"secret_sealed" text NOT NULL,
	"rate_per_second" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_providers_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "message_templates" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"name" text NOT NULL,
	"channel" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"html" text DEFAULT '' NOT NULL,
	"group_id" uuid,
	"transactional" boolean DEFAULT false NOT NULL,
	"locales" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_templates_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"template_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"recipient" text,
	"locale" text,
	"subject" text,
	"provider_id" uuid,
	"provider_message_id" text,
	"journey_entry_id" uuid,
	"journey_step_key" text,
	"broadcast_id" uuid,
	"journey_data" jsonb,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "messages_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "frequency_cap" jsonb;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "quiet_hours" jsonb;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_project_id_list_id_lists_project_id_id_fk" FOREIGN KEY ("project_id","list_id") REFERENCES "public"."lists"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_project_id_template_id_message_templates_project_id_id_fk" FOREIGN KEY ("project_id","template_id") REFERENCES "public"."message_templates"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_providers" ADD CONSTRAINT "message_providers_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_project_id_template_id_message_templates_project_id_id_fk" FOREIGN KEY ("project_id","template_id") REFERENCES "public"."message_templates"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_project_id_user_id_users_project_id_id_fk" FOREIGN KEY ("project_id","user_id") REFERENCES "public"."users"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broadcasts_due_idx" ON "broadcasts" USING btree ("send_at") WHERE "broadcasts"."state" in ('scheduled', 'sending');--> statement-breakpoint
CREATE UNIQUE INDEX "message_providers_channel_uq" ON "message_providers" USING btree ("project_id","channel");--> statement-breakpoint
CREATE UNIQUE INDEX "message_templates_name_uq" ON "message_templates" USING btree ("project_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "messages_journey_cause_uq" ON "messages" USING btree ("project_id","journey_entry_id","journey_step_key");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_broadcast_cause_uq" ON "messages" USING btree ("project_id","broadcast_id","user_id");--> statement-breakpoint
CREATE INDEX "messages_due_idx" ON "messages" USING btree ("next_attempt_at") WHERE "messages"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "messages_broadcast_queued_idx" ON "messages" USING btree ("project_id","broadcast_id") WHERE "messages"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "messages_user_idx" ON "messages" USING btree ("project_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_template_idx" ON "messages" USING btree ("project_id","template_id","id");