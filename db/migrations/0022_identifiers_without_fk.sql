ALTER TABLE "organization_identifiers" DROP CONSTRAINT "organization_identifiers_project_id_organization_id_organizations_project_id_id_fk";
--> statement-breakpoint
ALTER TABLE "user_identifiers" DROP CONSTRAINT "user_identifiers_project_id_user_id_users_project_id_id_fk";
--> statement-breakpoint
-- Identifiers lose their foreign key to their record. Its check ran once per pair inserted, a query
-- and a key-share lock of the record each: on a batch of new users it cost as much as inserting the
-- pairs themselves (about 4.5 of 11 ms per thousand). What it guarded, that no pair is attached to a
-- record being deleted, every writer now holds itself: a new record's pairs are written in the
-- transaction that created it; an upsert locks the records it names (FOR UPDATE) before writing; the
-- event drain, which may attach a new pair to a record it did not lock, key-share locks that record
-- before writing the pair and retries its transaction if the record is gone
-- (lib/identity/upsert-records.ts, writeIdentifiers). Deleting records deletes their identifiers here.
CREATE OR REPLACE FUNCTION relay_cascade_identifiers() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    DELETE FROM user_identifiers i USING gone g WHERE i.project_id = g.project_id AND i.user_id = g.id;
  ELSE
    DELETE FROM organization_identifiers i USING gone g WHERE i.project_id = g.project_id AND i.organization_id = g.id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_cascade_identifiers AFTER DELETE ON users REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION relay_cascade_identifiers();
--> statement-breakpoint
CREATE TRIGGER organizations_cascade_identifiers AFTER DELETE ON organizations REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION relay_cascade_identifiers();
