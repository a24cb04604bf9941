DROP INDEX "messages_due_idx";--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "started_through" uuid;--> statement-breakpoint
CREATE INDEX "messages_project_due_idx" ON "messages" USING btree ("project_id","next_attempt_at") WHERE "messages"."state" = 'queued';