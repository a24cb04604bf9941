-- A firing is named by what it is, (project, assignment, offset, cycle), and loses its surrogate id. No API
-- shows a firing id, and every new user or organization paid for one on its anniversary firing: drawing it
-- (uuid_generate_v7(), a random draw and four byte operations per row) and a second unique index. The
-- index by offset goes too: an offset's firings are reached through its schedule's assignments, one probe
-- of the key's prefix (project, assignment, offset) each, as the offset cascade below and
-- lib/schedules/delete-offset.ts do. Measured (bench/profile-route.ts batch, three interleaved pairs): about
-- 6 of 54 µs of PostgreSQL CPU per new user in /users/batch.
-- The unique key's index becomes the primary key as it is (no rebuild).
DROP INDEX "schedule_firings_offset_idx";--> statement-breakpoint
ALTER TABLE "schedule_firings" DROP CONSTRAINT "schedule_firings_project_id_id_pk";--> statement-breakpoint
ALTER TABLE "schedule_firings" ADD CONSTRAINT "schedule_firings_key" PRIMARY KEY USING INDEX "schedule_firings_key";--> statement-breakpoint
ALTER TABLE "schedule_firings" DROP COLUMN "id";--> statement-breakpoint
-- As in 0019, but an offset's firings are found through the assignments of the offset's schedule (every
-- firing's assignment is of its offset's schedule: firings are made from the pair).
CREATE OR REPLACE FUNCTION relay_cascade_schedules() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    DELETE FROM schedule_assignments a USING gone g WHERE a.project_id = g.project_id AND a.user_id = g.id;
  ELSIF TG_TABLE_NAME = 'organizations' THEN
    DELETE FROM schedule_assignments a USING gone g WHERE a.project_id = g.project_id AND a.organization_id = g.id;
  ELSIF TG_TABLE_NAME = 'schedules' THEN
    DELETE FROM schedule_assignments a USING gone g WHERE a.project_id = g.project_id AND a.schedule_id = g.id;
  ELSIF TG_TABLE_NAME = 'schedule_assignments' THEN
    DELETE FROM schedule_firings f USING gone g WHERE f.project_id = g.project_id AND f.assignment_id = g.id;
  ELSIF TG_TABLE_NAME = 'schedule_offsets' THEN
    DELETE FROM schedule_firings f USING gone g, schedule_assignments a
    WHERE a.project_id = g.project_id AND a.schedule_id = g.schedule_id
      AND f.project_id = a.project_id AND f.assignment_id = a.id AND f.offset_id = g.id;
  END IF;
  RETURN NULL;
END
$fn$;
