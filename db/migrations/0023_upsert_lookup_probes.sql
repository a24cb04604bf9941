-- 0023: relay_upsert_user and relay_upsert_organization with probed lookups.
-- It made a PL/pgSQL copy of the identity rules, which 0026_upsert_rules_in_typescript.sql drops: the
-- copy is no longer made here (git history keeps it). The rules live in lib/identity (lib/identity/README.md).
SELECT 1;
