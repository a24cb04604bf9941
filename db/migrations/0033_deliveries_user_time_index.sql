-- The user timeline pages a user's deliveries newest first by (created_at, id), like its other sources.
DROP INDEX IF EXISTS "destination_deliveries_user_idx";
--> statement-breakpoint
CREATE INDEX "destination_deliveries_user_idx" ON "destination_deliveries" USING btree ("project_id","user_id","created_at","id");
