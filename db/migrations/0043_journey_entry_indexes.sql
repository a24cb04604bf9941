DROP INDEX "journey_entries_user_exit_idx";--> statement-breakpoint
DROP INDEX "journey_entries_event_idx";--> statement-breakpoint
DROP INDEX "journey_entries_event_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "journey_entries_event_uq" ON "journey_entries" USING btree ("project_id","user_id","journey_id","event_id");