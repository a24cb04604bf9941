import { recordSystemEvents, type SystemEvent } from "@/lib/events/record-system-events";
import { lookupPairs } from "./lookup-pairs";
import { mergeRows } from "./merge";
import { checkRecordTotals, totalsError } from "./record-totals";
import { onRecordsCreated } from "./on-created";
import { insertRecords, type RawRecord } from "./insert-records";
import { pairsAsSent, writeIdentifiers } from "./write-identifiers";
import { pairKey } from "./pair-key";
import { planTargets, type Target } from "./plan-targets";
import type { StoredIdentifier } from "./resolve";
import type { Identifier } from "./schemas";
import type { RecordChange, UpsertRecordsOptions } from "./record-change";
import { KINDS, type Kind } from "./tables";
import type { ProjectContext } from "@/lib/access/context";

/** What upsertRecords applies: changes of one kind, in order, with the conflict rule and 409 paths. */
export interface UpsertRecordsInput extends UpsertRecordsOptions {
  kind: Kind;
  items: RecordChange[];
}

export interface UpsertedRecords {
  /** The record each item names, in item order. */
  ids: string[];
  /** Whether item i created its record (only the first item naming a new record did). */
  created: boolean[];
  /**
   * Each record this call created, as stored, with its identifiers in listIdentifiers' order: all of a
   * new record's pairs were written in this statement, so nothing needs reading back to show it.
   */
  newRecords: Map<string, { row: RawRecord; identifier: StoredIdentifier[] }>;
  /** How many system events (`*.created`, `*.updated`) the call recorded: none when it changed nothing. */
  recorded: number;
}

/**
 * Resolves, creates and merges users or organizations, one or a thousand, in a constant number of
 * statements: one identifier lookup (locking the records named), one insert of the new records, one
 * insert of their identifiers and of pairs new to existing records (part of the records' insert when
 * the call only creates records and no pair has metadata), one merge of the existing records, one
 * insert of system events, and the creation hooks (anniversary assignments) once for all.
 *
 * Items are applied in order, as if one after another: items naming the same record (by a known pair,
 * or by a new pair an earlier item introduced) are folded into one change of it (columns: last wins;
 * data: shallow-merged in order), and a new record gets the folded state in one `*.created`.
 * A concurrent creator of one of the new pairs makes the transaction retry (the unique key settles the
 * race; the retry finds the pair and updates instead). Pairs are written in one global order, so
 * concurrent batches sharing pairs wait for each other rather than deadlock.
 */
export async function upsertRecords(ctx: ProjectContext, input: UpsertRecordsInput): Promise<UpsertedRecords> {
  const { kind, items, ...opts } = input;
  const reject = opts.conflicts === "reject";
  // Each pair's key, made once (item i's keys at keys[i]).
  const keys = items.map((item) => item.identifier.map((p) => pairKey(p.source, p.external_id)));
  const unique = new Map<string, Identifier>();
  items.forEach((item, i) => {
    item.identifier.forEach((p, j) => {
      unique.set(keys[i]![j]!, p);
    });
  });
  const owner = await lookupPairs(ctx, { kind, pairs: [...unique.values()], lock: reject });
  const { targets, ids, created } = planTargets(kind, items, keys, owner, opts);

  const newTargets = [...targets.values()].filter((t) => t.id.startsWith("#"));
  // A batch that only creates records, without identifier metadata (what batches and imports of new
  // users mostly are), writes their pairs in the records' statement: they are all new and stored as sent.
  const pairsWithRecords =
    reject &&
    newTargets.length === targets.size &&
    newTargets.every((t) => [...t.pairs.values()].every(({ pair }) => !pair.metadata));
  // One statement creates the new records with their `*.created` events and creation hooks.
  const made = await insertRecords(ctx, { kind, newTargets, withPairs: pairsWithRecords });
  const rows = made.rows;
  // A target's id is a record id, or `#k` for the k-th new record: its stored id is the k-th inserted row's.
  const storedId = (id: string) => (id.startsWith("#") ? rows[Number(id.slice(1))]!.id : id);
  const added = pairsWithRecords
    ? pairsAsSent(newTargets, storedId)
    : await writeIdentifiers(ctx, { kind, targets: [...targets.values()], storedId, reject });

  const existing = [...targets.values()].filter((t) => !t.id.startsWith("#"));
  const toMerge = reject ? existing.filter((t) => Object.keys(t.columns).length || t.data) : [];
  const changes = await mergeRows(ctx, {
    table: KINDS[kind].sql.records,
    keys: ["id"],
    columns: KINDS[kind].columns,
    rows: toMerge.map((t) => ({ key: [t.id], columns: t.columns, data: t.data })),
  });
  const changedBy = new Map(toMerge.map((t, i) => [t.id, changes[i] ?? []]));

  // New records got their `*.created` from insertRecords; each existing record that changed gets `*.updated`
  // (targets are in the order of the items that first named them).
  const events: SystemEvent[] = [];
  for (const t of reject ? existing : []) {
    const changed = [...((added.counts.get(t.id) ?? 0) > 0 ? ["identifier"] : []), ...(changedBy.get(t.id) ?? [])];
    if (changed.length) events.push(recordEvent(kind, `${kind}.updated`, t.id, { changed }));
  }
  if (reject) {
    // Each request is bounded, but identifiers accumulate and data merges: check what this write made.
    // A new record's totals are known from the two inserts (its pairs, all new, and the stored data's
    // size); only existing records are counted again in SQL.
    const prefixOf = (t: Target) => (opts.path?.(t.first) ?? "identifier").replace(/identifier$/, "");
    for (const t of newTargets) {
      const row = rows[Number(t.id.slice(1))]!;
      const err = totalsError(
        kind,
        {
          identifiers: t.pairs.size,
          data_bytes: row._data_bytes,
          metadata_bytes: added.metadataBytes.get(row.id) ?? 0,
        },
        prefixOf(t),
      );
      if (err) throw err;
    }
    const touched = existing.filter((t) => t.data || (added.counts.get(t.id) ?? 0) > 0 || t.pairs.size);
    const prefix = new Map(touched.map((t) => [t.id, prefixOf(t)]));
    await checkRecordTotals(ctx, { kind, recordIds: [...prefix.keys()], prefixOf: (id) => prefix.get(id) ?? "" });
  }
  await recordSystemEvents(ctx, events);
  if (!made.hooked)
    await onRecordsCreated(ctx, { kind, records: rows.map((r) => ({ id: r.id, createdAt: new Date(r.created_at) })) });
  return {
    ids: ids.map(storedId),
    created,
    newRecords: new Map(rows.map((row) => [row.id, { row, identifier: added.stored.get(row.id) ?? [] }])),
    recorded: rows.length + events.length,
  };
}

function recordEvent(
  kind: Kind,
  name: `${Kind}.${"created" | "updated"}`,
  id: string,
  data: Record<string, unknown>,
): SystemEvent {
  return kind === "user" ? { name, userId: id, data } : { name, organizationId: id, data };
}
