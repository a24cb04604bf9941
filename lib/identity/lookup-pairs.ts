import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/sql";
import { pairKey } from "./pair-key";
import { KINDS, type Kind } from "./tables";
import type { ProjectContext } from "@/lib/access/context";

export interface Pair {
  source: string;
  external_id: string;
}

/**
 * The owners of many identifier pairs in one statement: pair key → record id, for the pairs that name a
 * record. With `lock`, the owning records are locked too, in id order (so concurrent batches touching
 * the same records queue up instead of deadlocking).
 */
export async function lookupPairs(ctx: ProjectContext, kind: Kind, pairs: Pair[], lock = false): Promise<Map<string, string>> {
  const { db: tx, projectId } = ctx;
  const owners = new Map<string, string>();
  if (!pairs.length) return owners;
  const t = KINDS[kind].sql;
  const input = JSON.stringify(pairs.map((p) => ({ s: p.source, e: p.external_id })));
  const rows = await queryRows<{ source: string; external_id: string; record_id: string }>(tx, sql`
    select i.source, i.external_id, i.${sql.identifier(t.idColumn)} as record_id
    from jsonb_to_recordset(${input}::jsonb) as x(s text, e text)
    -- One primary-key probe per pair (OFFSET 0 keeps the subquery from being flattened): planned as a
    -- join, a batch of new pairs was answered by scanning all of the project's identifiers, a cost that
    -- grew with the table (quadratic over an import).
    cross join lateral (
      select i.source, i.external_id, i.${sql.identifier(t.idColumn)} from ${sql.identifier(t.identifiers)} i
      where i.project_id = ${projectId}::uuid and i.source = x.s and i.external_id = x.e offset 0) i
    ${lock ? sql`join ${sql.identifier(t.records)} r on r.project_id = ${projectId}::uuid and r.id = i.${sql.identifier(t.idColumn)}
    order by r.id for update of r` : sql``}`);
  for (const r of rows) owners.set(pairKey(r.source, r.external_id), r.record_id);
  return owners;
}
