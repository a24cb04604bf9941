-- Assignments and firings lose their foreign keys (to schedules, users, organizations; to assignments and
-- offsets). Every new user or organization inserts an anniversary assignment and its firing, and the five
-- per-row checks (a trigger call and a key-share row lock each) cost about as much as the two inserts:
-- 73 ms of 5,000 new users' 820 ms in the plans. What the keys gave is kept another way:
--   * cascades: deleting a schedule, user, organization, assignment or offset deletes what hung on it,
--     by the statement-level triggers below (one set-based delete per statement, from the transition table);
--   * no orphan from a race: every writer key-share locks the parents it inserts under, once per statement
--     instead of once per row, so a concurrent delete waits for it, and the delete's trigger then sees
--     (READ COMMITTED: a fresh snapshot per statement) and deletes the new rows. The writers:
--       lib/schedules/anniversary.ts: the anniversary schedule and its
--         offsets (the records are the transaction's own);
--       lib/schedules/assign-schedule.ts: the user or organization (subject.ts, resolveAndHold), the
--         schedule (definitions.ts, ensureSchedule), the offsets (cycles.ts, materializeFirings);
--       materializeFirings' other callers hold the assignments' row locks (subject.ts, fire-due.ts);
--       lib/schedules/backfill-offset.ts holds the offset and the page of assignments FOR UPDATE.
--     lib/schedules/cascades.int.test.ts races writers against deletes and looks for orphans.
ALTER TABLE "schedule_assignments" DROP CONSTRAINT "schedule_assignments_project_id_schedule_id_schedules_project_id_id_fk";
--> statement-breakpoint
ALTER TABLE "schedule_assignments" DROP CONSTRAINT "schedule_assignments_project_id_user_id_users_project_id_id_fk";
--> statement-breakpoint
ALTER TABLE "schedule_assignments" DROP CONSTRAINT "schedule_assignments_project_id_organization_id_organizations_project_id_id_fk";
--> statement-breakpoint
ALTER TABLE "schedule_firings" DROP CONSTRAINT "schedule_firings_project_id_assignment_id_schedule_assignments_project_id_id_fk";
--> statement-breakpoint
ALTER TABLE "schedule_firings" DROP CONSTRAINT "schedule_firings_project_id_offset_id_schedule_offsets_project_id_id_fk";
--> statement-breakpoint
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
    DELETE FROM schedule_firings f USING gone g WHERE f.project_id = g.project_id AND f.offset_id = g.id;
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER users_cascade_schedules AFTER DELETE ON users REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION relay_cascade_schedules();
--> statement-breakpoint
CREATE TRIGGER organizations_cascade_schedules AFTER DELETE ON organizations REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION relay_cascade_schedules();
--> statement-breakpoint
CREATE TRIGGER schedules_cascade_schedules AFTER DELETE ON schedules REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION relay_cascade_schedules();
--> statement-breakpoint
CREATE TRIGGER schedule_assignments_cascade_schedules AFTER DELETE ON schedule_assignments REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION relay_cascade_schedules();
--> statement-breakpoint
CREATE TRIGGER schedule_offsets_cascade_schedules AFTER DELETE ON schedule_offsets REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION relay_cascade_schedules();
