CREATE TABLE "authoring_versions" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"kind" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"content" jsonb NOT NULL,
	"actor" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "authoring_versions_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "documents_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "layouts" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"name" text NOT NULL,
	"format" text DEFAULT 'html' NOT NULL,
	"body" text NOT NULL,
	"version_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "layouts_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "snippets" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"name" text NOT NULL,
	"body" text NOT NULL,
	"version_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "snippets_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "template_builds" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"template_version_id" uuid NOT NULL,
	"layout_version_id" uuid,
	"html" text NOT NULL,
	"locales" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "template_builds_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "default_layout_id" uuid;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "document_quota_bytes" bigint;--> statement-breakpoint
ALTER TABLE "lists" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "journeys" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "pinned" jsonb;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "format" text DEFAULT 'html' NOT NULL;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "layout_id" uuid;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "version_id" uuid;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "build_id" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "template_version_id" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "template_build_id" uuid;--> statement-breakpoint
ALTER TABLE "authoring_versions" ADD CONSTRAINT "authoring_versions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "layouts" ADD CONSTRAINT "layouts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snippets" ADD CONSTRAINT "snippets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_builds" ADD CONSTRAINT "template_builds_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "authoring_versions_number_uq" ON "authoring_versions" USING btree ("project_id","kind","owner_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_id_uq" ON "documents" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "layouts_name_uq" ON "layouts" USING btree ("project_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "snippets_name_uq" ON "snippets" USING btree ("project_id","name");--> statement-breakpoint
CREATE INDEX "template_builds_version_idx" ON "template_builds" USING btree ("project_id","template_version_id");