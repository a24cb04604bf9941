import { type SQL, sql } from "drizzle-orm";
import { queryRows, rowsById } from "@/lib/db/sql";
import { pairKey } from "./pair-key";
import { KINDS, type Kind } from "./tables";
import type { ProjectContext } from "@/lib/access/context";

export interface Pair {
  source: string;
  external_id: string;
}

export interface LookupInput {
  kind: Kind;
  pairs: Pair[];
  /** Lock the owning records too, in id order (so concurrent batches touching the same records queue up instead of deadlocking). */
  lock?: boolean;
}

/**
 * The owners of many identifier pairs in one statement: pair key → record id, for the pairs that name a
 * record (see ownersSql).
 */
export async function lookupPairs(ctx: ProjectContext, input: LookupInput): Promise<Map<string, string>> {
  if (!input.pairs.length) return new Map();
  const rows = await queryRows<OwnerRow>(ctx.db, sql`with ${ownersSql(ctx, input)} select * from owners`);
  return new Map(rows.map((r) => [pairKey(r.source, r.external_id), r.record_id]));
}

type OwnerRow = { source: string; external_id: string; record_id: string };

/**
 * The lookup as a WITH list ending in `owners (source, external_id, record_id)`, so a statement can act on
 * what it finds (insertRecords creates a record only when none of its pairs is known).
 */
export function ownersSql(ctx: ProjectContext, input: LookupInput): SQL {
  const { projectId } = ctx;
  const { kind, pairs, lock = false } = input;
  const t = KINDS[kind].sql;
  const asJson = JSON.stringify(pairs.map((p) => ({ s: p.source, e: p.external_id })));
  const found = sql`found as (
      select i.source, i.external_id, i.rid
      from jsonb_to_recordset(${asJson}::jsonb) as x(s text, e text)
      -- One primary-key probe per pair (OFFSET 0 keeps the subquery from being flattened): planned as a
      -- join, a batch of new pairs was answered by scanning all of the project's identifiers, a cost that
      -- grew with the table (quadratic over an import).
      cross join lateral (
        select i.source, i.external_id, i.${sql.identifier(t.idColumn)} as rid from ${sql.identifier(t.identifiers)} i
        where i.project_id = ${projectId}::uuid and i.source = x.s and i.external_id = x.e offset 0) i)`;
  if (!lock) return sql`${found}, owners as (select f.source, f.external_id, f.rid as record_id from found f)`;
  // The records named, locked one key probe each in id order; a join of the pairs with the records here
  // was planned, with the records' statistics stale, as a scan of the project's records. The aggregate
  // reads every probe, so every record is locked before anything is answered.
  return sql`${found}, locked as (
      select array_agg(r.id) as ids
      from ${rowsById(t.records, projectId, sql`array(select distinct rid from found order by 1)`, "r", { lock: "update" })}),
    owners as (select f.source, f.external_id, f.rid as record_id from found f, locked where f.rid = any(locked.ids))`;
}
