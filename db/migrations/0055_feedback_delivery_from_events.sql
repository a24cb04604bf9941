ALTER TABLE "message_events" DROP CONSTRAINT "message_events_project_id_projects_id_fk";
--> statement-breakpoint
DROP INDEX "message_events_message_idx";--> statement-breakpoint
ALTER TABLE "messages" DROP COLUMN "delivery";