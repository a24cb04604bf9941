import { type SQL, sql } from "drizzle-orm";
import { rowsById, uuidArray } from "@/lib/db/sql";
import { RuleBroken } from "@/lib/http/errors";
import { KINDS, type Kind } from "./tables";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Totals one record may reach across requests. Each request is bounded (20 identifiers, 32 KiB of
 * data), but identifiers accumulate and `data` merges, so without these a client could grow one row
 * without end, 32 KiB at a time.
 */
export const MAX_RECORD_IDENTIFIERS = 100;
export const MAX_RECORD_DATA_BYTES = 256 * 1024;

/**
 * Checks the records a write touched, in one statement, inside the writing transaction; past a limit it
 * throws a 422 naming the limit and the item (`prefixOf(id)`: `""`, or `[3].` inside a batch), so the
 * caller's transaction, the whole write, rolls back.
 */
export async function checkRecordTotals(
  ctx: ProjectContext,
  input: { kind: Kind; recordIds: string[]; prefixOf?: (id: string) => string },
): Promise<void> {
  const { kind, recordIds, prefixOf = () => "" } = input;
  const { db: tx, projectId } = ctx;
  if (!recordIds.length) return;
  const { sql: names } = KINDS[kind];
  const rows = await tx.execute<{ id: string; identifiers: number; data_bytes: number; metadata_bytes: number }>(sql`
    select r.id::text as id,
      (select count(*)::int from ${sql.identifier(names.identifiers)} i where i.project_id = r.project_id and i.${sql.identifier(names.idColumn)} = r.id) as identifiers,
      octet_length(r.data::text) as data_bytes,
      (select coalesce(sum(octet_length(i.metadata::text)), 0)::int from ${sql.identifier(names.identifiers)} i
        where i.project_id = r.project_id and i.${sql.identifier(names.idColumn)} = r.id) as metadata_bytes
    from ${rowsById(names.records, projectId, uuidArray(recordIds), "r")}`);
  for (const row of rows) {
    const err = totalsError(kind, row, prefixOf(row.id));
    if (err) throw err;
  }
}

export interface RecordTotals {
  identifiers: number;
  data_bytes: number;
  metadata_bytes: number;
}

/** Each total and its limit: the one list totalsError and withinTotalsSql read. */
const LIMITS: { total: keyof RecordTotals; max: number }[] = [
  { total: "identifiers", max: MAX_RECORD_IDENTIFIERS },
  { total: "data_bytes", max: MAX_RECORD_DATA_BYTES },
  { total: "metadata_bytes", max: MAX_RECORD_DATA_BYTES },
];

/**
 * The same limits as a condition on SQL expressions measuring each total, for a statement that writes a
 * record only when it stays within them (createInOneStatement in lib/identity/upsert-one.ts); a record
 * that would not is then written by the transactional path, whose check (totalsError) answers the 422.
 */
export function withinTotalsSql(totals: Record<keyof RecordTotals, SQL>): SQL {
  return sql`(${sql.join(
    LIMITS.map((l) => sql`${totals[l.total]} <= ${l.max}`),
    sql` and `,
  )})`;
}

/** The 422 for a record past a limit, or undefined. */
export function totalsError(kind: Kind, row: RecordTotals, prefix: string): RuleBroken | undefined {
  const { label } = KINDS[kind];
  const broken = LIMITS.find((l) => row[l.total] > l.max)?.total;
  if (broken === "identifiers") {
    return new RuleBroken(
      `A ${label} may have at most ${MAX_RECORD_IDENTIFIERS} identifiers; this write would give it ${row.identifiers}. Nothing was written.`,
      {
        errors: [
          { path: `${prefix}identifier`, message: `at most ${MAX_RECORD_IDENTIFIERS} identifiers per ${label}` },
        ],
      },
    );
  }
  if (broken === "data_bytes") {
    return new RuleBroken(
      `A ${label}'s data may be at most ${MAX_RECORD_DATA_BYTES / 1024} KiB serialized; this write would make it ${Math.ceil(row.data_bytes / 1024)} KiB. Nothing was written.`,
      {
        errors: [
          { path: `${prefix}data`, message: `at most ${MAX_RECORD_DATA_BYTES / 1024} KiB of data per ${label}` },
        ],
      },
    );
  }
  if (broken === "metadata_bytes") {
    return new RuleBroken(
      `A ${label}'s identifier metadata may be at most ${MAX_RECORD_DATA_BYTES / 1024} KiB in all. Nothing was written.`,
      {
        errors: [
          {
            path: `${prefix}identifier`,
            message: `at most ${MAX_RECORD_DATA_BYTES / 1024} KiB of identifier metadata per ${label}`,
          },
        ],
      },
    );
  }
  return undefined;
}
