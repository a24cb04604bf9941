CREATE TABLE "journey_step_passes" (
	"project_id" uuid NOT NULL,
	"journey_id" uuid NOT NULL,
	"step_key" text NOT NULL,
	"shard" smallint NOT NULL,
	"passed" bigint NOT NULL,
	CONSTRAINT "journey_step_passes_project_id_journey_id_step_key_shard_pk" PRIMARY KEY("project_id","journey_id","step_key","shard")
);
--> statement-breakpoint
DROP INDEX "journey_entry_steps_step_idx";--> statement-breakpoint
-- The journey view's "passed in all" per step, counted once from the paths so far; from now on
-- lib/journeys/write-moves.ts adds to it with each path it appends (the index that counted it is dropped).
INSERT INTO "journey_step_passes" ("project_id", "journey_id", "step_key", "shard", "passed")
SELECT s."project_id", s."journey_id", s."step_key", 0, count(*)
FROM "journey_entry_steps" s JOIN "journeys" j ON j."project_id" = s."project_id" AND j."id" = s."journey_id"
GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION relay_cascade_journey_passes() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM journey_step_passes c USING gone g WHERE c.project_id = g.project_id AND c.journey_id = g.id;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER journeys_cascade_passes AFTER DELETE ON journeys REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION relay_cascade_journey_passes();
