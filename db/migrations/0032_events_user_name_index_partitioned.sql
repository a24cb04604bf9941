-- The explain index (events_user_name_idx, 0029) was made before `events` became partitioned (0031), so it
-- lives on events_before only. Made on the partitioned table it reaches every partition; PostgreSQL attaches
-- the existing equal index of events_before instead of building it again.
ALTER INDEX IF EXISTS "events_user_name_idx" RENAME TO "events_before_user_name_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_user_name_idx" ON "events" USING btree ("project_id","user_id","name","occurred_at") WHERE "events"."user_id" is not null;
