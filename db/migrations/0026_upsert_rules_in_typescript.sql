-- The single upsert (POST /users, POST /organizations) runs the identity rules of lib/identity/upsert-records.ts
-- in a transaction of its own, as the batch path does, so the rules have one home (lib/identity/README.md).
-- The PL/pgSQL copies of those rules are dropped; the earlier migrations that made them are kept as no-ops.
DROP FUNCTION IF EXISTS relay_upsert_user(uuid, jsonb, jsonb);
--> statement-breakpoint
DROP FUNCTION IF EXISTS relay_upsert_organization(uuid, jsonb, jsonb);
--> statement-breakpoint
DROP FUNCTION IF EXISTS relay_upsert_record(uuid, jsonb, jsonb);
