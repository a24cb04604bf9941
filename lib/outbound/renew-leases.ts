import { type SQL, sql } from "drizzle-orm";
import type { Db } from "@/db/client";

export interface LeaseColumn {
  /** The table of the work (`messages`, `destination_deliveries`). */
  table: string;
  /** Its lease column: set `leaseSeconds` ahead of now (`lease_until`, `next_attempt_at`). */
  column: string;
  /** Rows whose lease may move (still unfinished), over the table's alias `w`. */
  unfinished: SQL;
}

/**
 * Moves the leases of work this process still holds (sending, waiting in a throttle or an SMTP pool's
 * queue, an outcome not yet written) `leaseSeconds` ahead, one statement for them all.
 */
export async function renewLeases(
  db: Db,
  lease: LeaseColumn,
  input: { held: { projectId: string; id: string }[]; leaseSeconds: number },
): Promise<void> {
  if (!input.held.length) return;
  const keys = JSON.stringify(input.held.map((h) => ({ p: h.projectId, i: h.id })));
  await db.execute(sql`update ${sql.identifier(lease.table)} w
    set ${sql.identifier(lease.column)} = now() + make_interval(secs => ${input.leaseSeconds})
    from jsonb_to_recordset(${keys}::jsonb) as k(p uuid, i uuid)
    where w.project_id = k.p and w.id = k.i and ${lease.unfinished}`);
}
