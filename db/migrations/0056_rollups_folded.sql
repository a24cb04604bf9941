ALTER TABLE "message_rollups" ADD COLUMN "folded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "message_rollups_daily" ADD COLUMN "folded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "message_rollups_unfolded_idx" ON "message_rollups" USING btree ("hour") WHERE not "message_rollups"."folded";--> statement-breakpoint
CREATE INDEX "message_rollups_daily_unfolded_idx" ON "message_rollups_daily" USING btree ("day") WHERE not "message_rollups_daily"."folded";