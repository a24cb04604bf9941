import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { queryRows, rowsById, uuidArray } from "@/lib/db/sql";
import { RetryTransaction } from "@/lib/db/transaction";
import { uuidv7s } from "@/lib/db/uuidv7";
import {
  joinBatchInHand,
  recordSystemEvents,
  systemEventsSql,
  type SystemEvent,
} from "@/lib/events/record-system-events";
import { Conflict } from "@/lib/http/errors";
import { lookupPairs } from "./lookup-pairs";
import { mergeRows } from "./merge";
import { checkRecordTotals, totalsError } from "./record-totals";
import { onCreatedSql, onRecordsCreated } from "./on-created";
import { pairKey } from "./pair-key";
import type { StoredIdentifier } from "./resolve";
import type { Identifier } from "./schemas";
import { KINDS, type Kind } from "./tables";
import type { ProjectContext } from "@/lib/access/context";

/** One upsert of a user or an organization: identifiers, profile columns it sets (null clears), data to merge. */
export interface RecordChange {
  identifier: Identifier[];
  columns?: Record<string, string | null>;
  data?: Record<string, unknown>;
}

export interface UpsertRecordsOptions {
  /**
   * `reject` (upserts): identifiers naming two records are a 409 naming the item, nothing written; the
   * records are locked and merged, and `*.updated` lists what changed. `first` (events): the first known
   * pair in list order wins, so an event is never dropped; records are only resolved or created.
   */
  conflicts: "reject" | "first";
  /** Where item i's identifiers are in the request body, for the 409. */
  path?: (i: number) => string;
}

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
  fresh: Map<string, { row: RawRecord; identifier: StoredIdentifier[] }>;
  /** How many system events (`*.created`, `*.updated`) the call recorded: none when it changed nothing. */
  recorded: number;
}

interface Target {
  /** A record id, or `#k` for the k-th record this batch creates. */
  id: string;
  first: number;
  /** Pairs to write: new ones (insert) and, on existing records, known ones carrying metadata (merge). */
  pairs: Map<string, { pair: Identifier; isNew: boolean }>;
  columns: Record<string, string | null>;
  data?: Record<string, unknown>;
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
  const { db: tx, projectId } = ctx;
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

  const targets = new Map<string, Target>();
  const ids: string[] = [];
  const created: boolean[] = [];
  let pending = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const itemKeys = keys[i]!;
    // The records the item's known pairs name, in the item's order, each once.
    const named: string[] = [];
    for (const k of itemKeys) {
      const o = owner.get(k);
      if (o !== undefined && !named.includes(o)) named.push(o);
    }
    if (named.length > 1 && reject) throw conflictError(kind, item, named, owner, opts.path?.(i) ?? "identifier");
    const id = named[0] ?? `#${pending++}`;
    let t = targets.get(id);
    created.push(!t && id.startsWith("#"));
    if (!t) targets.set(id, (t = { id, first: i, pairs: new Map(), columns: {} }));
    item.identifier.forEach((p, j) => {
      const k = itemKeys[j]!;
      const o = owner.get(k);
      if (o === undefined) owner.set(k, id);
      else if (o !== id || !p.metadata || !reject) return;
      const prev = t.pairs.get(k);
      // Metadata of repeats is shallow-merged in order; a pair without any is kept as sent.
      const metadata = prev?.pair.metadata ? { ...prev.pair.metadata, ...p.metadata } : p.metadata;
      t.pairs.set(k, { pair: metadata === p.metadata ? p : { ...p, metadata }, isNew: prev?.isNew ?? o === undefined });
    });
    if (item.columns) Object.assign(t.columns, item.columns);
    // An item's data is only read (merged into new objects), so a record named once keeps it as is.
    if (item.data) t.data = t.data ? { ...t.data, ...item.data } : item.data;
    ids.push(id);
  }

  const fresh = [...targets.values()].filter((t) => t.id.startsWith("#"));
  // A batch that only creates records, without identifier metadata (what batches and imports of new
  // users mostly are), writes their pairs in the records' statement: they are all new and stored as sent.
  const pairsWithRecords =
    reject &&
    fresh.length === targets.size &&
    fresh.every((t) => [...t.pairs.values()].every(({ pair }) => !pair.metadata));
  // One statement creates the new records with their `*.created` events and creation hooks.
  const made = await insertRecords(ctx, kind, fresh, pairsWithRecords);
  const rows = made.rows;
  const real = (id: string) => (id.startsWith("#") ? rows[Number(id.slice(1))]!.id : id);
  const added = pairsWithRecords
    ? pairsAsSent(fresh, real)
    : await writeIdentifiers(tx, kind, projectId, [...targets.values()], real, reject);

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
    for (const t of fresh) {
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
    ids: ids.map(real),
    created,
    fresh: new Map(rows.map((row) => [row.id, { row, identifier: added.stored.get(row.id) ?? [] }])),
    recorded: rows.length + events.length,
  };
}

/**
 * A record row as inserted (snake_case, timestamps as text); `_data_bytes`: the stored data's serialized
 * size, as the record totals measure it.
 */
export type RawRecord = {
  id: string;
  created_at: string;
  updated_at: string;
  data: Record<string, unknown>;
  _data_bytes: number;
} & Record<string, unknown>;

/**
 * One statement for every new record: the insert, each record's `*.created` event (its data made in the
 * process from the record as sent and the pairs it was created with, recorded and handed over as
 * recordSystemEvents does) and the creation hooks (lib/identity/on-created.ts). Answered in the order of
 * `fresh`; `hooked` is false when the hooks could not run yet (the caller then runs them on their own).
 * The record and event ids are drawn here (uuidv7s: one random draw for the batch instead of
 * uuid_generate_v7() per row) and travel with the rows. Each record's data is sent once, inside its
 * event's data, from which the statement takes the record's columns and data: sending the data twice
 * would be over half the bytes of a batch again, and parsing it twice.
 *
 * The rows are not sent back: a new record stores exactly what was sent (its profile columns as text,
 * its data as the jsonb of the data sent, no insert trigger), and its times are the statement's `now()`,
 * written explicitly, so the statement answers one row: each record's stored data size (for the totals
 * check) and that time. Reading a thousand rows back printed and parsed their jsonb again, with two
 * timestamps each (docs/decisions/0002-set-based-identity-writes.md). The one difference from a
 * read: an object's keys come in the order sent, not jsonb's (shortest first), the same JSON value.
 */
async function insertRecords(
  ctx: ProjectContext,
  kind: Kind,
  fresh: Target[],
  withPairs: boolean,
): Promise<{ rows: RawRecord[]; hooked: boolean }> {
  if (!fresh.length) return { rows: [], hooked: true };
  const { sql: t, columns } = KINDS[kind];
  const ids = uuidv7s(fresh.length * 2);
  // Each record's `*.created` data, as its event stores it and the statement's input carries it: the
  // record's pairs, every profile column (null when unset) and its data. The statement takes the
  // record's columns and data from it (`->>`, `->`: a copy of part of the parsed value) instead of
  // building the event's object again from them with jsonb_build_object, and the process hands the same
  // objects over in hand (docs/decisions/0002-set-based-identity-writes.md).
  const created = fresh.map((f) => createdData(kind, f));
  const input = JSON.stringify(fresh.map((f, o) => ({ o, id: ids[o], e: ids[fresh.length + o], v: created[o] })));
  const cols = sql.join(
    columns.map((c) => sql.identifier(c)),
    sql`, `,
  );
  const values = sql.join(
    columns.map((c) => sql`x.v ->> ${c}::text`),
    sql`, `,
  );
  const subject =
    kind === "user"
      ? sql`x.id as user_id, null::uuid as organization_id`
      : sql`null::uuid as user_id, x.id as organization_id`;
  const recording = systemEventsSql(ctx);
  // The times are the statement's now() (the transaction's start), here as in the insert.
  const hooks = onCreatedSql(ctx, {
    kind,
    created: sql`select x.o as ord, x.id, now() as created_at from x`,
    count: fresh.length,
  });
  // Everything after the insert reads the input, not the insert's RETURNING: a new record stores exactly
  // what was sent, so returning the rows and joining them back to the input by id only repeated what
  // `x` holds.
  const [made] = await queryRows<{ sizes: number[]; at: string; hooked: boolean }>(
    ctx.db,
    sql`
    with x as materialized (
      select * from jsonb_to_recordset(${input}::jsonb) as x(o int, id uuid, e uuid, v jsonb)
    ), inserted as (
      insert into ${sql.identifier(t.records)} (project_id, id, ${cols}, data, created_at, updated_at)
      select ${ctx.projectId}::uuid, x.id, ${values}, x.v -> 'data', now(), now() from x
    ), input as (
      select x.o as ord, x.e as id, ${`${kind}.created`}::text as name, ${subject}, ${kind}::text as kind, x.v as data, null::timestamptz as occurred_at
      from x
    ), ${withPairs ? sql`${pairsInsert(ctx, kind)}, ` : sql``}${recording.ctes}, ${hooks.ctes}
    select array_agg(octet_length((x.v -> 'data')::text) order by x.o) as sizes, now()::text as at, ${hooks.complete} as hooked
    from x${recording.from}`,
  );
  const { sizes, at, hooked } = made!;
  if (sizes?.length !== fresh.length) throw new Error(`inserted ${sizes?.length ?? 0} records of ${fresh.length}`);
  const rows = fresh.map((f, o): RawRecord => {
    const row: RawRecord = { id: ids[o]!, created_at: at, updated_at: at, data: f.data ?? {}, _data_bytes: sizes[o]! };
    for (const c of columns) row[c] = f.columns[c] ?? null;
    return row;
  });
  const name = `${kind}.created`;
  joinBatchInHand(ctx, () =>
    rows.map((row, o) => ({ id: ids[fresh.length + o]!, name, data: created[o]!, receivedAt: at })),
  );
  return { rows, hooked };
}

/**
 * The records' pairs as part of their insert statement (insertRecords with `withPairs`): every pair of
 * every new record, from the records' own input (the `identifier` list of their `*.created` data), plainly
 * inserted as writeIdentifiers' plain path does (a concurrent creator of one fails the unique key, and
 * the transaction retries). In one order for every batch, source then external id byte-wise, so
 * concurrent batches sharing new pairs wait for each other instead of deadlocking (writeIdentifiers sorts
 * by JavaScript's order, which differs only between characters past U+E000 and astral ones; a deadlock
 * there is retried like any lost race). A data-modifying CTE always runs to completion, read or not.
 */
function pairsInsert(ctx: ProjectContext, kind: Kind): SQL {
  const t = KINDS[kind].sql;
  return sql`pairs_written as (
      insert into ${sql.identifier(t.identifiers)} (project_id, source, external_id, ${sql.identifier(t.idColumn)})
      select ${ctx.projectId}::uuid, p.source, p.external_id, x.id
      from x cross join lateral jsonb_to_recordset(x.v -> 'identifier') as p(source text, external_id text)
      order by p.source collate "C", p.external_id collate "C")`;
}

/** What writeIdentifiers answers, for pairs insertRecords wrote with the records: all new, none with metadata. */
function pairsAsSent(fresh: Target[], real: (id: string) => string) {
  const stored = new Map<string, StoredIdentifier[]>();
  for (const t of fresh)
    stored.set(
      real(t.id),
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
function byteOrdered(list: StoredIdentifier[]): StoredIdentifier[] {
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

/** A new record's `*.created` data: its pairs (as sent, without metadata), every profile column (null when unset) and its data. */
function createdData(kind: Kind, t: Target): Record<string, unknown> {
  const data: Record<string, unknown> = {
    identifier: [...t.pairs.values()].map(({ pair }) => ({ source: pair.source, external_id: pair.external_id })),
  };
  for (const c of KINDS[kind].columns) data[c] = t.columns[c] ?? null;
  data.data = t.data ?? {};
  return data;
}

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
async function writeIdentifiers(
  tx: DbOrTx,
  kind: Kind,
  projectId: string,
  targets: Target[],
  real: (id: string) => string,
  reject: boolean,
) {
  const t = KINDS[kind].sql;
  const rows = targets
    .flatMap((target) =>
      [...target.pairs.entries()].map(([k, { pair, isNew }]) => ({
        k,
        s: pair.source,
        e: pair.external_id,
        r: real(target.id),
        m: pair.metadata ?? null,
        n: isNew,
        fresh: target.id.startsWith("#"),
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
  const held = reject ? [] : [...new Set(rows.filter((r) => !r.fresh).map((r) => r.r))];
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
      if (reject || r.fresh) throw new RetryTransaction();
      continue;
    }
    const w = inserted.get(r.k)!;
    if (r.fresh) {
      metadataBytes.set(r.r, (metadataBytes.get(r.r) ?? 0) + (w.metadata_bytes ?? 0));
      const list = stored.get(r.r) ?? [];
      if (!list.length) stored.set(r.r, list);
      list.push({ source: w.source, external_id: w.external_id, metadata: w.metadata ?? null });
    } else counts.set(r.r, (counts.get(r.r) ?? 0) + 1);
  }
  for (const list of stored.values()) byteOrdered(list);
  return added;
}

function recordEvent(
  kind: Kind,
  name: `${Kind}.${"created" | "updated"}`,
  id: string,
  data: Record<string, unknown>,
): SystemEvent {
  return kind === "user" ? { name, userId: id, data } : { name, organizationId: id, data };
}

/** The 409 for an item whose identifiers name several records (`named`, in the item's order) */
export function conflictError(
  kind: Kind,
  item: RecordChange,
  named: string[],
  owner: Map<string, string>,
  path: string,
) {
  const label = KINDS[kind].label;
  const records = named.map((id) => ({
    id: id.startsWith("#") ? null : id,
    identifier: item.identifier
      .filter((p) => owner.get(pairKey(p.source, p.external_id)) === id)
      .map(({ source, external_id }) => ({ source, external_id })),
  }));
  return new Conflict(`The identifiers at ${path} name ${named.length} different ${label}s; nothing was written.`, {
    errors: [{ path, message: `resolves to ${named.length} different ${label}s` }],
    extra: { records },
  });
}
