ALTER TABLE "schedule_assignments" ALTER COLUMN "cycle" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "schedule_firings" ALTER COLUMN "cycle" SET DATA TYPE bigint;