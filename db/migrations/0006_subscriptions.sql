CREATE TYPE "public"."message_channel" AS ENUM('email', 'sms', 'push');--> statement-breakpoint
CREATE TYPE "public"."subscription_policy" AS ENUM('opt_out', 'opt_in');--> statement-breakpoint
CREATE TYPE "public"."subscription_source" AS ENUM('client_api', 'admin_api', 'console', 'one_click', 'unsubscribe_page', 'preference_center', 'sms');--> statement-breakpoint
CREATE TYPE "public"."subscription_state" AS ENUM('subscribed', 'unsubscribed');--> statement-breakpoint
CREATE TABLE "subscription_changes" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"user_id" uuid NOT NULL,
	"group_id" uuid,
	"channel" "message_channel" NOT NULL,
	"previous_state" "subscription_state",
	"state" "subscription_state",
	"source" "subscription_source" NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_changes_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "subscription_groups" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"channel" "message_channel" NOT NULL,
	"default_policy" "subscription_policy",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_groups_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "subscription_settings" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"default_policy" "subscription_policy" DEFAULT 'opt_out' NOT NULL,
	"twilio_auth_token" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_channel_opt_outs" (
	"project_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"channel" "message_channel" NOT NULL,
	"source" "subscription_source" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_channel_opt_outs_project_id_user_id_channel_pk" PRIMARY KEY("project_id","user_id","channel")
);
--> statement-breakpoint
CREATE TABLE "user_subscriptions" (
	"project_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	"state" "subscription_state" NOT NULL,
	"source" "subscription_source" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_subscriptions_project_id_user_id_group_id_pk" PRIMARY KEY("project_id","user_id","group_id")
);
--> statement-breakpoint
ALTER TABLE "subscription_changes" ADD CONSTRAINT "subscription_changes_project_id_user_id_users_project_id_id_fk" FOREIGN KEY ("project_id","user_id") REFERENCES "public"."users"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_changes" ADD CONSTRAINT "subscription_changes_project_id_group_id_subscription_groups_project_id_id_fk" FOREIGN KEY ("project_id","group_id") REFERENCES "public"."subscription_groups"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_groups" ADD CONSTRAINT "subscription_groups_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_settings" ADD CONSTRAINT "subscription_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_channel_opt_outs" ADD CONSTRAINT "user_channel_opt_outs_project_id_user_id_users_project_id_id_fk" FOREIGN KEY ("project_id","user_id") REFERENCES "public"."users"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD CONSTRAINT "user_subscriptions_project_id_user_id_users_project_id_id_fk" FOREIGN KEY ("project_id","user_id") REFERENCES "public"."users"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD CONSTRAINT "user_subscriptions_project_id_group_id_subscription_groups_project_id_id_fk" FOREIGN KEY ("project_id","group_id") REFERENCES "public"."subscription_groups"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscription_changes_user_idx" ON "subscription_changes" USING btree ("project_id","user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_groups_name_uq" ON "subscription_groups" USING btree ("project_id",lower("name"));--> statement-breakpoint
CREATE INDEX "user_subscriptions_group_idx" ON "user_subscriptions" USING btree ("project_id","group_id","state");--> statement-breakpoint
CREATE INDEX "users_phone_idx" ON "users" USING btree ("project_id","phone") WHERE "users"."phone" is not null;