CREATE TABLE "message_rollups_daily" (
	"project_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"scope_id" text NOT NULL,
	"metric" text NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"shard" smallint DEFAULT 0 NOT NULL,
	"count" bigint NOT NULL,
	"value" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "message_rollups_daily_pk" PRIMARY KEY("project_id","scope","scope_id","metric","day","shard")
);
--> statement-breakpoint
ALTER TABLE "message_rollups_daily" ADD CONSTRAINT "message_rollups_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The hourly rows counted before the daily ones existed, carried over once (lib/reports/rollup-rows.ts
-- writes both from now on): each UTC day is the sum of its hours, shard by shard. The lock holds off writers
-- until the migration commits, so no hour counted meanwhile is missing from its day.
LOCK TABLE "message_rollups" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "message_rollups_daily" ("project_id", "scope", "scope_id", "metric", "day", "shard", "count", "value")
SELECT "project_id", "scope", "scope_id", "metric", date_trunc('day', "hour", 'UTC'), "shard", sum("count"), sum("value")
FROM "message_rollups"
GROUP BY 1, 2, 3, 4, 5, 6;
