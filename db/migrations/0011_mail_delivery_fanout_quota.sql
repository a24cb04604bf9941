CREATE TYPE "public"."mail_delivery" AS ENUM('queued', 'sent', 'failed');--> statement-breakpoint
ALTER TABLE "event_fanouts" ADD COLUMN "planned" integer;--> statement-breakpoint
ALTER TABLE "event_fanouts" ADD COLUMN "refusal" text;--> statement-breakpoint
ALTER TABLE "project_invites" ADD COLUMN "delivery_id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "project_invites" ADD COLUMN "delivery" "mail_delivery" DEFAULT 'queued' NOT NULL;--> statement-breakpoint
ALTER TABLE "project_invites" ADD COLUMN "delivery_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "project_invites" ADD COLUMN "delivery_error" text;--> statement-breakpoint
ALTER TABLE "project_invites" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
-- Invitations made before this migration had their mail sent on the request itself.
UPDATE "project_invites" SET "delivery" = 'sent', "delivered_at" = "updated_at";--> statement-breakpoint
-- Fan-outs made before the quota existed count as admitted with what they delivered.
UPDATE "event_fanouts" SET "planned" = "delivered";
