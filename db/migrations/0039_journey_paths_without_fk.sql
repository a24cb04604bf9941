ALTER TABLE "journey_entry_steps" DROP CONSTRAINT "journey_entry_steps_project_id_entry_id_journey_entries_project_id_id_fk";
--> statement-breakpoint
-- A path row's foreign key to its entry cost a trigger call and a key-share row lock per row, as much as
-- a third of appending the rows when an entry passes two steps (EXPLAIN ANALYZE of 1,000 rows: 35 ms of
-- the insert's 111 ms; docs/decisions/0025). What the key gave is kept another way (docs/decisions/0004):
--   * cascade: deleting entries deletes their paths, by the statement-level trigger below;
--   * no orphan from a race: the one writer, lib/journeys/write-moves.ts, updates the entries (taking their
--     row locks) before it appends their paths in the same transaction, so a concurrent delete waits for
--     it and its trigger then sees (READ COMMITTED) and deletes the new rows.
CREATE OR REPLACE FUNCTION relay_cascade_journey_paths() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM journey_entry_steps s USING gone g WHERE s.project_id = g.project_id AND s.entry_id = g.id;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER journey_entries_cascade_paths AFTER DELETE ON journey_entries REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION relay_cascade_journey_paths();
