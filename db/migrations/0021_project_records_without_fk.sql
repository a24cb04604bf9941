ALTER TABLE "organizations" DROP CONSTRAINT "organizations_project_id_projects_id_fk";
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_project_id_projects_id_fk";
--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_project_id_projects_id_fk";
--> statement-breakpoint
-- users, organizations and events lose their foreign key to projects. On the write paths that matter
-- most (batches, imports, the event drain) it cost a check, and a key-share lock of the one project row,
-- for every row inserted: with identifiers -> users, the largest share of a new user's trigger time.
-- Every writer takes the project id from a context that has already found the project (an API key, a
-- session, a job of that project), and the product never deletes a project. Should one be deleted
-- (by hand, in SQL), this statement-level trigger still takes its records and events with it; their
-- dependents go by their own foreign keys and the schedule triggers of migration 0019. A write racing
-- such a deletion could leave rows of the deleted project behind, unreachable: every read is scoped by a
-- project the caller holds, and project ids are never reused.
CREATE OR REPLACE FUNCTION relay_cascade_project_records() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM events e USING gone g WHERE e.project_id = g.id;
  DELETE FROM organizations o USING gone g WHERE o.project_id = g.id;
  DELETE FROM users u USING gone g WHERE u.project_id = g.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER projects_cascade_records AFTER DELETE ON projects REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION relay_cascade_project_records();
