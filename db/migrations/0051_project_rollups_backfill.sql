-- The overview's hourly message figures read a project scope of message_rollups (lib/reports/add-message-rollups.ts
-- writes it from now on). Every message has exactly one template, so the project's count per metric and hour is
-- the sum of its templates' rows: rows counted before this migration are carried over from them once.
INSERT INTO "message_rollups" ("project_id", "scope", "scope_id", "metric", "hour", "count", "value")
SELECT "project_id", 'project', "project_id"::text, "metric", "hour", sum("count"), sum("value")
FROM "message_rollups"
WHERE "scope" = 'template'
GROUP BY "project_id", "metric", "hour"
ON CONFLICT ("project_id", "scope", "scope_id", "metric", "hour") DO NOTHING;
