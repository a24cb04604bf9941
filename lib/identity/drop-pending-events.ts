import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { KINDS, type Kind } from "./tables";

/**
 * Deletes the accepted, not yet recorded events that name one of a record's identifiers, in the
 * transaction that erases the record (call it before the identifiers go). Otherwise the drain would
 * record them after the erase and, finding no record for the identifier, create it again: a deleted user
 * would come back. A row the drain holds right now (SKIP LOCKED claim) makes this wait for that batch to
 * commit; its events are then recorded against the record and erased with it. `match` events name no
 * identifier and are not touched. Scans only the project's intake backlog (normally small).
 */
export async function dropPendingEvents(ctx: ProjectContext, input: { kind: Kind; recordId: string }): Promise<number> {
  const { kind, recordId } = input;
  const t = KINDS[kind].sql;
  const rows = await ctx.db.execute(sql`
    delete from event_intake q
    where q.project_id = ${ctx.projectId}::uuid and q.kind = ${kind} and not q.recorded and q.identifier is not null
      and exists (
        select 1 from ${sql.identifier(t.identifiers)} i
        where i.project_id = q.project_id and i.${sql.identifier(t.idColumn)} = ${recordId}::uuid
          and q.identifier @> jsonb_build_array(jsonb_build_object('source', i.source, 'external_id', i.external_id)))
    returning 1`);
  return rows.length;
}
