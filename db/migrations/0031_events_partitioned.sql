-- `events` becomes a table partitioned by range of `occurred_at` (PostgreSQL's declarative partitioning:
-- no extension, so the embedded database and managed PostgreSQL work alike). The layout, kept by the
-- worker (lib/events/partitions.ts):
--   events_before    FROM (MINVALUE) TO (<the Monday after this migration>): the rows the table held
--                    before, attached as they are (no copy), and any later event older than that.
--   events_pYYYYMMDD one week each, [Monday 00:00 UTC, next Monday), created weeks ahead by the worker.
--   events_default   DEFAULT: whatever has no partition (a week not yet created or already dropped), so
--                    an insert never fails for want of a partition. The worker moves such rows into their
--                    week's partition when it creates it.
-- A unique key of a partitioned table must contain the partition key, so the primary key is now
-- (project_id, id, occurred_at); an event keeps its occurred_at for life, so it still names one event.
-- De-duplication by the client's id never relied on this key (event_client_ids, a table of its own).
ALTER TABLE "events" RENAME TO "events_before";
--> statement-breakpoint
-- A table has one primary key: ATTACH below gives this one the partitioned table's (project_id, id, occurred_at).
ALTER TABLE "events_before" DROP CONSTRAINT "events_project_id_id_pk";
--> statement-breakpoint
ALTER INDEX "events_project_time_idx" RENAME TO "events_before_project_time_idx";
--> statement-breakpoint
ALTER INDEX "events_user_idx" RENAME TO "events_before_user_idx";
--> statement-breakpoint
ALTER INDEX "events_org_idx" RENAME TO "events_before_org_idx";
--> statement-breakpoint
ALTER INDEX "events_name_idx" RENAME TO "events_before_name_idx";
--> statement-breakpoint
CREATE TABLE "events" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT uuid_generate_v7() NOT NULL,
	"name" text NOT NULL,
	"user_id" uuid,
	"organization_id" uuid,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"origin" text DEFAULT 'system' NOT NULL,
	"client_id" text,
	"occurred_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_project_id_id_occurred_at_pk" PRIMARY KEY("project_id","id","occurred_at")
) PARTITION BY RANGE ("occurred_at");
--> statement-breakpoint
CREATE INDEX "events_project_time_idx" ON "events" USING btree ("project_id","occurred_at","id");
--> statement-breakpoint
CREATE INDEX "events_user_idx" ON "events" USING btree ("project_id","user_id","occurred_at") WHERE "events"."user_id" is not null;
--> statement-breakpoint
CREATE INDEX "events_org_idx" ON "events" USING btree ("project_id","organization_id","occurred_at") WHERE "events"."organization_id" is not null;
--> statement-breakpoint
CREATE INDEX "events_name_idx" ON "events" USING btree ("project_id","name","occurred_at");
--> statement-breakpoint
DO $$
DECLARE
  bound timestamptz := date_trunc('week', now(), 'UTC') + interval '1 week';
BEGIN
  -- Rows dated after the bound (client clocks ahead) cannot stay in events_before: set aside, re-inserted below.
  CREATE TEMP TABLE events_ahead ON COMMIT DROP AS SELECT * FROM events_before WHERE occurred_at >= bound;
  DELETE FROM events_before WHERE occurred_at >= bound;
  -- The check lets ATTACH skip its validation scan; the indexes matching the parent's are attached, not rebuilt.
  EXECUTE format('ALTER TABLE events_before ADD CONSTRAINT events_before_bound CHECK (occurred_at IS NOT NULL AND occurred_at < %L)', bound);
  EXECUTE format('ALTER TABLE events ATTACH PARTITION events_before FOR VALUES FROM (MINVALUE) TO (%L)', bound);
  ALTER TABLE events_before DROP CONSTRAINT events_before_bound;
  CREATE TABLE events_default PARTITION OF events DEFAULT;
  INSERT INTO events SELECT * FROM events_ahead;
END
$$;
