CREATE TYPE "public"."admin_org_role" AS ENUM('member', 'admin', 'owner');--> statement-breakpoint
CREATE TYPE "public"."project_role" AS ENUM('support', 'client', 'editor', 'admin');--> statement-breakpoint
CREATE TABLE "admin_org_members" (
	"org_id" uuid NOT NULL,
	"admin_id" uuid NOT NULL,
	"role" "admin_org_role" DEFAULT 'member' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_org_members_org_id_admin_id_pk" PRIMARY KEY("org_id","admin_id")
);
--> statement-breakpoint
CREATE TABLE "admin_orgs" (
	"id" uuid PRIMARY KEY DEFAULT uuid_generate_v7() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admins" (
	"id" uuid PRIMARY KEY DEFAULT uuid_generate_v7() NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"email_verified" timestamp with time zone,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT uuid_generate_v7() NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"role" "project_role" NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_by" uuid,
	"rate_limit_per_second" integer DEFAULT 100 NOT NULL,
	"rate_limit_burst" integer DEFAULT 500 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "project_members" (
	"project_id" uuid NOT NULL,
	"admin_id" uuid NOT NULL,
	"role" "project_role" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_members_project_id_admin_id_pk" PRIMARY KEY("project_id","admin_id")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT uuid_generate_v7() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_identifiers" (
	"project_id" uuid NOT NULL,
	"source" text NOT NULL,
	"external_id" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_identifiers_project_id_source_external_id_pk" PRIMARY KEY("project_id","source","external_id")
);
--> statement-breakpoint
CREATE TABLE "organization_members" (
	"project_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_members_project_id_organization_id_user_id_pk" PRIMARY KEY("project_id","organization_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"name" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organizations_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "user_identifiers" (
	"project_id" uuid NOT NULL,
	"source" text NOT NULL,
	"external_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_identifiers_project_id_source_external_id_pk" PRIMARY KEY("project_id","source","external_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"email" text,
	"phone" text,
	"timezone" text,
	"locale" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"name" text NOT NULL,
	"user_id" uuid,
	"organization_id" uuid,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"origin" text DEFAULT 'system' NOT NULL,
	"client_id" text,
	"occurred_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
ALTER TABLE "admin_org_members" ADD CONSTRAINT "admin_org_members_org_id_admin_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."admin_orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_org_members" ADD CONSTRAINT "admin_org_members_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_org_id_admin_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."admin_orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_identifiers" ADD CONSTRAINT "organization_identifiers_project_id_organization_id_organizations_project_id_id_fk" FOREIGN KEY ("project_id","organization_id") REFERENCES "public"."organizations"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_members" ADD CONSTRAINT "organization_members_project_id_organization_id_organizations_project_id_id_fk" FOREIGN KEY ("project_id","organization_id") REFERENCES "public"."organizations"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_members" ADD CONSTRAINT "organization_members_project_id_user_id_users_project_id_id_fk" FOREIGN KEY ("project_id","user_id") REFERENCES "public"."users"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_identifiers" ADD CONSTRAINT "user_identifiers_project_id_user_id_users_project_id_id_fk" FOREIGN KEY ("project_id","user_id") REFERENCES "public"."users"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_org_members_admin_idx" ON "admin_org_members" USING btree ("admin_id");--> statement-breakpoint
CREATE UNIQUE INDEX "admins_email_lower_uq" ON "admins" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_hash_uq" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_keys_project_idx" ON "api_keys" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "project_members_admin_idx" ON "project_members" USING btree ("admin_id");--> statement-breakpoint
CREATE INDEX "projects_org_idx" ON "projects" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "organization_identifiers_org_idx" ON "organization_identifiers" USING btree ("project_id","organization_id");--> statement-breakpoint
CREATE INDEX "organization_members_user_idx" ON "organization_members" USING btree ("project_id","user_id");--> statement-breakpoint
CREATE INDEX "organizations_data_gin" ON "organizations" USING gin ("data" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "user_identifiers_user_idx" ON "user_identifiers" USING btree ("project_id","user_id");--> statement-breakpoint
CREATE INDEX "users_data_gin" ON "users" USING gin ("data" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree ("project_id",lower("email"));--> statement-breakpoint
CREATE INDEX "events_project_time_idx" ON "events" USING btree ("project_id","occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_user_idx" ON "events" USING btree ("project_id","user_id","occurred_at" DESC NULLS LAST) WHERE "events"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "events_org_idx" ON "events" USING btree ("project_id","organization_id","occurred_at" DESC NULLS LAST) WHERE "events"."organization_id" is not null;--> statement-breakpoint
CREATE INDEX "events_name_idx" ON "events" USING btree ("project_id","name","occurred_at" DESC NULLS LAST);