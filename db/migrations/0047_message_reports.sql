CREATE TABLE "campaign_goals" (
	"project_id" uuid NOT NULL,
	"owner_kind" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"event" text NOT NULL,
	"condition" jsonb,
	"within" text NOT NULL,
	"value_path" text,
	CONSTRAINT "campaign_goals_project_id_owner_kind_owner_id_pk" PRIMARY KEY("project_id","owner_kind","owner_id")
);
--> statement-breakpoint
CREATE TABLE "message_engagement" (
	"project_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"opened_at" timestamp with time zone,
	"opens" integer DEFAULT 0 NOT NULL,
	"machine_opened_at" timestamp with time zone,
	"machine_opens" integer DEFAULT 0 NOT NULL,
	"clicked_at" timestamp with time zone,
	"clicks" integer DEFAULT 0 NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	"converted_at" timestamp with time zone,
	"conversion_value" double precision,
	CONSTRAINT "message_engagement_project_id_message_id_pk" PRIMARY KEY("project_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "message_rollups" (
	"project_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"scope_id" text NOT NULL,
	"metric" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"count" bigint NOT NULL,
	"value" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "message_rollups_project_id_scope_scope_id_metric_hour_pk" PRIMARY KEY("project_id","scope","scope_id","metric","hour")
);
--> statement-breakpoint
ALTER TABLE "campaign_goals" ADD CONSTRAINT "campaign_goals_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_engagement" ADD CONSTRAINT "message_engagement_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_engagement" ADD CONSTRAINT "message_engagement_project_id_message_id_messages_project_id_id_fk" FOREIGN KEY ("project_id","message_id") REFERENCES "public"."messages"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_rollups" ADD CONSTRAINT "message_rollups_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_goals_event_idx" ON "campaign_goals" USING btree ("project_id","event");