CREATE TABLE "destination_attempts" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"delivery_id" uuid NOT NULL,
	"destination_id" uuid NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"status" integer,
	"latency_ms" integer NOT NULL,
	"response" text,
	"error" text,
	CONSTRAINT "destination_attempts_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "destination_deliveries" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"destination_id" uuid NOT NULL,
	"event_id" uuid,
	"event_name" text NOT NULL,
	"user_id" uuid,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"tries" smallint DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_status" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "destination_deliveries_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "destinations" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"filter" jsonb,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"secret_sealed" text NOT NULL,
	"previous_secret_sealed" text,
	"previous_secret_until" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "destinations_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
ALTER TABLE "destination_attempts" ADD CONSTRAINT "destination_attempts_project_id_delivery_id_destination_deliveries_project_id_id_fk" FOREIGN KEY ("project_id","delivery_id") REFERENCES "public"."destination_deliveries"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "destination_deliveries" ADD CONSTRAINT "destination_deliveries_project_id_destination_id_destinations_project_id_id_fk" FOREIGN KEY ("project_id","destination_id") REFERENCES "public"."destinations"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "destinations" ADD CONSTRAINT "destinations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "destination_attempts_delivery_idx" ON "destination_attempts" USING btree ("project_id","delivery_id");--> statement-breakpoint
CREATE INDEX "destination_attempts_health_idx" ON "destination_attempts" USING btree ("project_id","destination_id","attempted_at");--> statement-breakpoint
CREATE INDEX "destination_deliveries_due_idx" ON "destination_deliveries" USING btree ("project_id","destination_id","next_attempt_at") WHERE "destination_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "destination_deliveries_log_idx" ON "destination_deliveries" USING btree ("project_id","destination_id","id");--> statement-breakpoint
CREATE INDEX "destination_deliveries_event_idx" ON "destination_deliveries" USING btree ("project_id","event_id");--> statement-breakpoint
CREATE INDEX "destination_deliveries_user_idx" ON "destination_deliveries" USING btree ("project_id","user_id","id");--> statement-breakpoint
CREATE INDEX "destination_deliveries_created_idx" ON "destination_deliveries" USING btree ("created_at");