CREATE TABLE "message_events" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"message_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dedupe_key" text NOT NULL,
	"address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_events_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "suppressions" (
	"project_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"address" text NOT NULL,
	"reason" text NOT NULL,
	"source" text NOT NULL,
	"message_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "suppressions_project_id_channel_address_pk" PRIMARY KEY("project_id","channel","address")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "bounce_policy" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "delivery" jsonb;--> statement-breakpoint
ALTER TABLE "message_events" ADD CONSTRAINT "message_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_events" ADD CONSTRAINT "message_events_project_id_message_id_messages_project_id_id_fk" FOREIGN KEY ("project_id","message_id") REFERENCES "public"."messages"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_events_dedupe_uq" ON "message_events" USING btree ("project_id","message_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "message_events_message_idx" ON "message_events" USING btree ("project_id","message_id","at");--> statement-breakpoint
CREATE INDEX "message_events_soft_idx" ON "message_events" USING btree ("project_id","address","at") WHERE "message_events"."kind" = 'bounced' and "message_events"."detail"->>'type' = 'soft';--> statement-breakpoint
CREATE INDEX "suppressions_created_idx" ON "suppressions" USING btree ("project_id","created_at","address");