import { sql } from "drizzle-orm";
import { queryRows, rowsById, uuidArray } from "@/lib/db/sql";
import { RetryTransaction } from "@/lib/db/transaction";
import type { ProjectContext } from "@/lib/access/context";
import { pairKey } from "./pair-key";
import type { StoredIdentifier } from "./resolve";
import { KINDS, type Kind } from "./tables";
import type { Target } from "./plan-targets";

/**
 * One statement for every pair to write: new pairs are inserted (given to their record); pairs the
 * record already holds get their metadata shallow-merged. A new pair a concurrent transaction just gave
 * to another record comes back unwritten (or, in a plain insert, fails the unique key), and the
 * transaction retries (the retry then sees the owner, and answers 409 or updates). With `first`
 * semantics a pair lost to another record is simply not attached, except a new record's, which must
 * have its pairs. Returns, per existing record, how many
 * pairs were new, and per new record the serialized size of its pairs' metadata (for the totals check)
 * and its pairs as stored (for its view).
 */
export async function writeIdentifiers(
  ctx: ProjectContext,
  {
    kind,
    targets,
    storedId,
    reject,
  }: { kind: Kind; targets: Target[]; storedId: (id: string) => string; reject: boolean },
) {
  const { db: tx, projectId } = ctx;
  const t = KINDS[kind].sql;
  const rows = targets
    .flatMap((target) =>
      [...target.pairs.entries()].map(([k, { pair, isNew }]) => ({
        k,
        s: pair.source,
        e: pair.external_id,
        r: storedId(target.id),
        m: pair.metadata ?? null,
        n: isNew,
        newRecord: target.id.startsWith("#"),
      })),
    )
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const counts = new Map<string, number>();
  const metadataBytes = new Map<string, number>();
  const stored = new Map<string, StoredIdentifier[]>();
  const added = { counts, metadataBytes, stored };
  if (!rows.length) return added;
  const idColumn = sql.identifier(t.idColumn);
  const table = sql.identifier(t.identifiers);
  // Upserts whose pairs are all new (new records, new pairs of existing ones: what a batch or an import
  // mostly is) insert them plainly. A pair a concurrent transaction created meanwhile then fails the
  // unique key (23505), which restarts the transaction as RetryTransaction does below; ON CONFLICT would
  // cost an index probe before and a confirmation record after every row.
  const plain = reject && rows.every((r) => r.n);
  const onConflict = plain
    ? sql``
    : sql`on conflict (project_id, source, external_id) do update set metadata = coalesce(t.metadata, '{}'::jsonb) || excluded.metadata
      where t.${idColumn} = excluded.${idColumn} and excluded.metadata is not null`;
  // A plain insert of pairs without metadata stores exactly what was sent: nothing needs returning.
  const bare = plain && rows.every((r) => r.m === null);
  // Identifiers have no foreign key to their record (db/migrations/0022_identifiers_without_fk.sql): a
  // writer must hold the record it attaches a pair to, or a concurrent delete could leave the pair behind.
  // A new record is this transaction's own, and `reject` locked the records it names (lookupPairs). The
  // existing records `first` (the event drain) attaches new pairs to are key-share locked here, as the
  // foreign key's check did; one deleted meanwhile makes the transaction retry, as the check's failure
  // did, and the retry resolves the event without it.
  const held = reject ? [] : [...new Set(rows.filter((r) => !r.newRecord).map((r) => r.r))];
  if (held.length) {
    const locked = await queryRows<{ id: string }>(
      tx,
      sql`
      select r.id from ${rowsById(t.records, projectId, uuidArray(held.sort()), "r", { lock: "key share" })}`,
    );
    if (locked.length < held.length) throw new RetryTransaction();
  }
  const returned = await queryRows<Written>(
    tx,
    sql`
    insert into ${table} as t (project_id, source, external_id, ${idColumn}, metadata)
    select ${projectId}::uuid, x.s, x.e, x.r, x.m
    from jsonb_to_recordset(${JSON.stringify(rows.map(({ s, e, r, m }) => ({ s, e, r, m })))}::jsonb) as x(s text, e text, r uuid, m jsonb)
    ${onConflict}
    ${bare ? sql`` : sql`returning t.source, t.external_id, t.metadata, (t.xmax::text = '0') as inserted, octet_length(t.metadata::text) as metadata_bytes`}`,
  );
  const written = bare
    ? rows.map(
        (r): Written => ({ source: r.s, external_id: r.e, metadata: null, inserted: true, metadata_bytes: null }),
      )
    : returned;
  const inserted = new Map(written.filter((w) => w.inserted).map((w) => [pairKey(w.source, w.external_id), w]));
  for (const r of rows) {
    if (!r.n) continue;
    if (!inserted.has(r.k)) {
      if (reject || r.newRecord) throw new RetryTransaction();
      continue;
    }
    const w = inserted.get(r.k)!;
    if (r.newRecord) {
      metadataBytes.set(r.r, (metadataBytes.get(r.r) ?? 0) + (w.metadata_bytes ?? 0));
      const list = stored.get(r.r) ?? [];
      if (!list.length) stored.set(r.r, list);
      list.push({ source: w.source, external_id: w.external_id, metadata: w.metadata ?? null });
    } else counts.set(r.r, (counts.get(r.r) ?? 0) + 1);
  }
  for (const list of stored.values()) byteOrdered(list);
  return added;
}

/** What writeIdentifiers answers, for pairs insertRecords wrote with the records: all new, none with metadata. */
export function pairsAsSent(newTargets: Target[], storedId: (id: string) => string) {
  const stored = new Map<string, StoredIdentifier[]>();
  for (const t of newTargets)
    stored.set(
      storedId(t.id),
      byteOrdered(
        [...t.pairs.values()].map(({ pair }) => ({
          source: pair.source,
          external_id: pair.external_id,
          metadata: null,
        })),
      ),
    );
  return { counts: new Map<string, number>(), metadataBytes: new Map<string, number>(), stored };
}

/**
 * A new record's pairs in listIdentifiers' order: it orders by creation time, then source and external
 * id byte-wise (collate "C"), and a new record's pairs were all created by one statement.
 */
export function byteOrdered(list: StoredIdentifier[]): StoredIdentifier[] {
  const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
  return list.sort((a, b) => bytes(a.source, b.source) || bytes(a.external_id, b.external_id));
}

/** A pair as the identifiers statement wrote it. */
type Written = {
  source: string;
  external_id: string;
  metadata: Record<string, unknown> | null;
  inserted: boolean;
  metadata_bytes: number | null;
};
