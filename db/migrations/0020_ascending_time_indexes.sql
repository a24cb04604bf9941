-- Time-ordered B-tree indexes become ascending. Declared DESC NULLS LAST, they had two faults:
-- 1. Rows arrive with ever later times, so every insert went to the index's leftmost leaf, where a full
--    page splits half and half (only the rightmost leaf splits lopsidedly): the pages stayed half empty,
--    twice the size and twice the splits of an ascending index (measured: 20 MB against 11 MB for
--    200,000 rows).
-- 2. The reads ask ORDER BY time DESC, id DESC, which is NULLS FIRST; an index declared NULLS LAST does
--    not match it, so listing a project's events sorted every row of the project. An ascending index
--    scanned backward gives exactly that order.
-- On a large events table the CREATE INDEX statements take a while and hold writes to it meanwhile.
DROP INDEX "events_project_time_idx";--> statement-breakpoint
DROP INDEX "events_user_idx";--> statement-breakpoint
DROP INDEX "events_org_idx";--> statement-breakpoint
DROP INDEX "events_name_idx";--> statement-breakpoint
DROP INDEX "subscription_changes_user_idx";--> statement-breakpoint
DROP INDEX "api_requests_key_idx";--> statement-breakpoint
CREATE INDEX "events_project_time_idx" ON "events" USING btree ("project_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "events_user_idx" ON "events" USING btree ("project_id","user_id","occurred_at") WHERE "events"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "events_org_idx" ON "events" USING btree ("project_id","organization_id","occurred_at") WHERE "events"."organization_id" is not null;--> statement-breakpoint
CREATE INDEX "events_name_idx" ON "events" USING btree ("project_id","name","occurred_at");--> statement-breakpoint
CREATE INDEX "subscription_changes_user_idx" ON "subscription_changes" USING btree ("project_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "api_requests_key_idx" ON "api_requests" USING btree ("project_id","key_id","at");