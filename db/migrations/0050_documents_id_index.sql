DROP INDEX "documents_id_uq";--> statement-breakpoint
CREATE INDEX "documents_id_idx" ON "documents" USING btree ("id");