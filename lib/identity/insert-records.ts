import { sql, type SQL } from "drizzle-orm";
import { queryRows } from "@/lib/db/sql";
import { uuidv7s } from "@/lib/db/uuidv7";
import { addToOpenBatch, systemEventsSql } from "@/lib/events/record-system-events";
import type { ProjectContext } from "@/lib/access/context";
import { ownersSql, type Pair } from "./lookup-pairs";
import { withinTotalsSql } from "./record-totals";
import { onCreatedSql } from "./on-created";
import { KINDS, type Kind } from "./tables";
import type { Target } from "./plan-targets";

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
 * `newTargets`; `hooked` is false when the hooks could not run yet (the caller then runs them on their own).
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
export async function insertRecords(
  ctx: ProjectContext,
  input: {
    kind: Kind;
    newTargets: Target[];
    withPairs: boolean;
    /**
     * The statement is a transaction of its own for one record whose pairs are `oneStatement.pairs`
     * (lib/identity/upsert-one.ts): it writes nothing unless none of them names a record yet (the
     * lookup is in the statement), the record stays within the record totals and its creation hooks
     * complete in it; it leaves the intake's wake-up to the caller. `rows` is empty when nothing was
     * written.
     */
    oneStatement?: { pairs: Pair[] };
  },
): Promise<{ rows: RawRecord[]; hooked: boolean }> {
  const { kind, newTargets, withPairs, oneStatement } = input;
  if (!newTargets.length) return { rows: [], hooked: true };
  // In one statement, the totals are checked before writing (metadata would be written by a later statement), and
  // per row: with several records, some could be written and others not.
  if (oneStatement && (!withPairs || newTargets.length !== 1))
    throw new Error("insertRecords in one statement writes one record with its pairs");
  const { sql: t, columns } = KINDS[kind];
  const ids = uuidv7s(newTargets.length * 2);
  // Each record's `*.created` data, as its event stores it and the statement's input carries it: the
  // record's pairs, every profile column (null when unset) and its data. The statement takes the
  // record's columns and data from it (`->>`, `->`: a copy of part of the parsed value) instead of
  // building the event's object again from them with jsonb_build_object, and the process hands the same
  // objects over in hand (docs/decisions/0002-set-based-identity-writes.md).
  const created = newTargets.map((f) => createdData(kind, f));
  const rowsJson = JSON.stringify(created.map((v, o) => ({ o, id: ids[o], e: ids[newTargets.length + o], v })));
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
  const recording = systemEventsSql(ctx, { wakeAfter: !!oneStatement });
  // The times are the statement's now() (the transaction's start), here as in the insert.
  const hooks = onCreatedSql(ctx, {
    kind,
    created: sql`select x.o as ord, x.id, now() as created_at from x`,
    count: newTargets.length,
  });
  // In one statement, a known pair (an update or a 409), a record past a limit, or a project's first creation (its
  // hooks need a schedule made first) is left to the caller's transactional path.
  const onlyIf = oneStatement
    ? sql`where not exists (select 1 from owners) and ${hooks.ready} and ${withinTotalsSql({
        identifiers: sql`jsonb_array_length(x.v -> 'identifier')`,
        data_bytes: sql`octet_length((x.v -> 'data')::text)`,
        metadata_bytes: sql`0`,
      })}`
    : sql``;
  // Everything after the insert reads the input, not the insert's RETURNING: a new record stores exactly
  // what was sent, so returning the rows and joining them back to the input by id only repeated what
  // `x` holds.
  const [made] = await queryRows<{ sizes: number[] | null; at: string; hooked: boolean }>(
    ctx.db,
    sql`
    with ${oneStatement ? sql`${ownersSql(ctx, { kind, pairs: oneStatement.pairs })}, ` : sql``}x as materialized (
      select * from jsonb_to_recordset(${rowsJson}::jsonb) as x(o int, id uuid, e uuid, v jsonb) ${onlyIf}
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
  if (oneStatement && !sizes) return { rows: [], hooked: true };
  if (sizes?.length !== newTargets.length)
    throw new Error(`inserted ${sizes?.length ?? 0} records of ${newTargets.length}`);
  const rows = newTargets.map((f, o): RawRecord => {
    const row: RawRecord = { id: ids[o]!, created_at: at, updated_at: at, data: f.data ?? {}, _data_bytes: sizes[o]! };
    for (const c of columns) row[c] = f.columns[c] ?? null;
    return row;
  });
  const name = `${kind}.created`;
  addToOpenBatch(ctx, () =>
    created.map((data, o) => ({ id: ids[newTargets.length + o]!, name, data, receivedAt: at })),
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

/** A new record's `*.created` data: its pairs (as sent, without metadata), every profile column (null when unset) and its data. */
function createdData(kind: Kind, t: Target): Record<string, unknown> {
  const data: Record<string, unknown> = {
    identifier: [...t.pairs.values()].map(({ pair }) => ({ source: pair.source, external_id: pair.external_id })),
  };
  for (const c of KINDS[kind].columns) data[c] = t.columns[c] ?? null;
  data.data = t.data ?? {};
  return data;
}
