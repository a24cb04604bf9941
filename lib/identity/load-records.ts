import { sql } from "drizzle-orm";
import { queryRows, rowsById, uuidArray } from "@/lib/db/sql";
import { identifiersJson, type StoredIdentifier } from "./resolve";
import { KINDS, type Kind } from "./tables";
import type { ProjectContext } from "@/lib/access/context";

/** A record row as stored (snake_case columns, timestamps as ISO text). */
export type RecordRow = { id: string; data: Record<string, unknown>; created_at: string; updated_at: string } & Record<
  string,
  unknown
>;

/**
 * Users or organizations by id, each with its identifiers, in the order of `ids` (unknown ids are left
 * out), as raw rows (snake_case, timestamps as text) for the kind's view. One round trip, one key probe
 * per id (rowsById: `id = any(...)` read the whole project when the statistics were stale).
 */
export async function loadRecords(
  ctx: ProjectContext,
  input: { kind: Kind; ids: string[] },
): Promise<{ row: RecordRow; identifier: StoredIdentifier[] }[]> {
  const { kind, ids } = input;
  if (!ids.length) return [];
  const rows = await queryRows<RecordRow & { identifiers: StoredIdentifier[] }>(
    ctx.db,
    sql`
    select r.*, ${identifiersJson(kind, sql`r.id`, sql`r.project_id`)} as identifiers
    from ${rowsById(KINDS[kind].sql.records, ctx.projectId, uuidArray([...new Set(ids)]), "r")}`,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [{ row: r, identifier: r.identifiers }] : [];
  });
}
