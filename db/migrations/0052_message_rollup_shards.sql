ALTER TABLE "message_rollups" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "message_rollups" DROP CONSTRAINT "message_rollups_project_id_scope_scope_id_metric_hour_pk";--> statement-breakpoint
ALTER TABLE "message_rollups" ADD CONSTRAINT "message_rollups_project_id_scope_scope_id_metric_hour_shard_pk" PRIMARY KEY("project_id","scope","scope_id","metric","hour","shard");
