-- Web processes keep the keys they have looked up for a few seconds (lib/access/key-cache.ts). Any change
-- to a key row (revoked, role, rate limit, allowed origins) and any removal (also by a project's
-- cascade) says so on the channel `relay_api_keys` (KEYS_CHANNEL in lib/queue/jobs.ts) at commit, and
-- every process drops what it holds. A trigger is the one place every path to the table passes.
CREATE OR REPLACE FUNCTION relay_api_key_changed() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('relay_api_keys', OLD.id::text);
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER api_keys_changed AFTER UPDATE OR DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION relay_api_key_changed();
