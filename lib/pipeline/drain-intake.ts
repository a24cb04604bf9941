import { sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { type AppContext, systemContext } from "@/lib/access/context";
import type { Identifier } from "@/lib/identity/schemas";
import { upsertRecords } from "@/lib/identity/upsert-records";
import { enqueue } from "@/lib/queue/enqueue";
import { enqueueSteps } from "./enqueue-steps";
import { collectRecordedEvents, type RecordedEvent } from "./open-batch";
import { inRetryingTransaction } from "@/lib/db/retry";

type Claimed = {
  project_id: string;
  id: string;
  kind: "user" | "organization";
  name: string;
  data: Record<string, unknown>;
  match: Record<string, unknown> | null;
  client_id: string | null;
  occurred_at: string;
  received_at: string;
  /** occurred_at, always (occurred_at itself only when JavaScript must record the row). */
  at: string;
  recorded: boolean;
  /** Set only when SQL could not settle the owner: some identifier is unknown (create or attach in JS). */
  identifier: Identifier[] | null;
  /** Recorded by the claiming statement itself. */
  inserted: boolean;
};

/**
 * Pipeline step 1 for accepted events, one batch per call, in one transaction. One statement claims
 * intake rows (SKIP LOCKED, so workers never share one), deletes them, resolves every event whose
 * identifiers are all known (first identifier in list order that names a record wins) and inserts those
 * into `events`, keyed by the event id, without the data leaving the database. The rest is done here:
 * identifiers that are new (records created, or pairs attached, with the upsert's rules), `match`
 * fan-outs registered, and steps 2-4 enqueued. A crash rolls all of it back; the rows are claimable again.
 * At most `limit` rows (default 1000), or only the row `only` names (a failed batch's rows retried one
 * by one). Returns how many intake rows were consumed. (Needs jit = off, set for every connection in
 * db/client.ts: the planner overestimates the per-identifier lookups and would otherwise JIT-compile for
 * ~1 s a batch.)
 */
export async function drainIntake(
  ctx: AppContext<Db>,
  input: { limit?: number; only?: IntakeKey } = {},
): Promise<number> {
  const { db } = ctx;
  const { limit = 1000, only } = input;
  const which = only ? sql`and project_id = ${only.projectId}::uuid and id = ${only.id}::uuid` : sql``;
  return inRetryingTransaction(db, async (tx) => {
    const rows = await tx.execute<Claimed>(sql`
      with claimed as (
        -- By ctid (a TID scan): a key-based IN would hash-join against a scan of the whole backlog per batch.
        delete from event_intake where ctid = any(array(
          select ctid from event_intake where failed_at is null ${which} for update skip locked limit ${limit}))
        returning *
      ), resolved as (
        -- Rows of a project deleted meanwhile are consumed and dropped: there is nothing left to record them against.
        select c.*, r.pairs, r.found, r.owner from claimed c
        left join lateral (
          select count(*) as pairs, count(x.rid) as found, (array_agg(x.rid order by x.o) filter (where x.rid is not null))[1] as owner
          from (
            select e.o, case when c.kind = 'user'
              then (select ui.user_id from user_identifiers ui where ui.project_id = c.project_id and ui.source = e.v->>'source' and ui.external_id = e.v->>'external_id')
              else (select oi.organization_id from organization_identifiers oi where oi.project_id = c.project_id and oi.source = e.v->>'source' and oi.external_id = e.v->>'external_id')
            end as rid
            from jsonb_array_elements(c.identifier) with ordinality e(v, o)
            offset 0 -- keeps the lookup from being inlined into each aggregate (three lookups per identifier)
          ) x
        ) r on c.identifier is not null and not c.recorded
        where exists (select 1 from projects pr where pr.id = c.project_id)
      ), ins as (
        insert into events (project_id, id, name, user_id, organization_id, data, origin, client_id, occurred_at, received_at)
        select project_id, id, name, case when kind = 'user' then owner end, case when kind = 'organization' then owner end,
          data, 'client', client_id, occurred_at, received_at
        from resolved where owner is not null and found = pairs
        on conflict (project_id, id, occurred_at) do nothing
        returning id
      )
      select project_id, id, kind, name, data, match, received_at::text as received_at, occurred_at::text as at, recorded,
        case when rest then client_id end as client_id, case when rest then occurred_at::text end as occurred_at,
        case when hard then identifier end as identifier, (not recorded and owner is not null and found = pairs) as inserted
      from (select *, identifier is not null and not recorded and (owner is null or found < pairs) as hard,
              (identifier is not null and not recorded and (owner is null or found < pairs)) or match is not null as rest
            from resolved) r`);
    const byProject = new Map<string, Claimed[]>();
    for (const r of rows) byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), r]);
    for (const [projectId, list] of byProject) await finishBatch(tx, projectId, list);
    return rows.length;
  });
}

/** Step 1's rest for one project's claimed rows; system events it records (new records) join the batch. */
async function finishBatch(tx: DbOrTx, projectId: string, rows: Claimed[]) {
  const sample = (r: Claimed): RecordedEvent => ({
    id: r.id,
    name: r.name,
    data: r.data,
    receivedAt: r.received_at,
    occurredAt: r.at,
  });
  const recorded = rows.filter((r) => r.recorded || r.inserted).map(sample);
  const hard = rows.filter((r) => r.identifier);
  const toInsert: Record<string, unknown>[] = [];
  const creations: { e: string; k: string; r: string | undefined }[] = [];
  // Records created here record their `*.created` events (and their hooks' events) into this batch.
  const ctx = systemContext(tx, projectId);
  const joined = await collectRecordedEvents(ctx, async () => {
    for (const kind of ["user", "organization"] as const) {
      const mine = hard.filter((r) => r.kind === kind);
      if (!mine.length) continue;
      // The same set-based code as the upsert batches, with event rules: the first known pair wins.
      const { ids: owners, created } = await upsertRecords(ctx, {
        kind,
        items: mine.map((r) => ({ identifier: r.identifier! })),
        conflicts: "first",
      });
      mine.forEach((r, i) => {
        if (created[i]) creations.push({ e: r.id, k: kind, r: owners[i] });
        toInsert.push({
          id: r.id,
          n: r.name,
          u: kind === "user" ? owners[i] : null,
          o: kind === "organization" ? owners[i] : null,
          d: r.data,
          c: r.client_id,
          t: r.occurred_at,
          rt: r.received_at,
        });
      });
    }
  });
  if (toInsert.length) {
    const inserted = await tx.execute<{ id: string }>(sql`
      insert into events (project_id, id, name, user_id, organization_id, data, origin, client_id, occurred_at, received_at)
      select ${projectId}::uuid, x.id, x.n, x.u, x.o, x.d, 'client', x.c, x.t, x.rt
      from jsonb_to_recordset(${JSON.stringify(toInsert)}::jsonb) as x(id uuid, n text, u uuid, o uuid, d jsonb, c text, t timestamptz, rt timestamptz)
      on conflict (project_id, id, occurred_at) do nothing
      returning id`);
    // Which records these events created, for their trace (only creations: one row per new record).
    if (creations.length)
      await tx.execute(sql`
        insert into event_created_records (project_id, event_id, kind, record_id)
        select ${projectId}::uuid, x.e, x.k, x.r from jsonb_to_recordset(${JSON.stringify(creations)}::jsonb) as x(e uuid, k text, r uuid)
        where x.r is not null and x.e in (select i.id from jsonb_to_recordset(${JSON.stringify(inserted)}::jsonb) as i(id uuid))
        on conflict do nothing`);
    const byId = new Map(hard.map((r) => [r.id, r]));
    recorded.push(...inserted.map((r) => sample(byId.get(r.id)!)));
  }
  const fanouts = rows.filter((r) => !r.recorded && r.match);
  if (fanouts.length) {
    const json = fanouts.map((r) => ({
      id: r.id,
      k: r.kind,
      n: r.name,
      m: r.match,
      d: r.data,
      c: r.client_id,
      t: r.occurred_at,
      rt: r.received_at,
    }));
    const made = await tx.execute<{ id: string }>(sql`
      insert into event_fanouts (project_id, id, kind, name, match, data, client_id, occurred_at, received_at)
      select ${projectId}::uuid, x.id, x.k, x.n, x.m, x.d, x.c, x.t, x.rt
      from jsonb_to_recordset(${JSON.stringify(json)}::jsonb) as x(id uuid, k text, n text, m jsonb, d jsonb, c text, t timestamptz, rt timestamptz)
      on conflict (project_id, id) do nothing
      returning id`);
    if (made.length)
      await enqueue(
        tx,
        "pipeline.fanout",
        made.map((r) => ({ projectId, fanoutId: r.id })),
      );
  }
  await enqueueSteps(ctx, { recorded: [...joined, ...recorded] });
}

export interface IntakeKey {
  projectId: string;
  id: string;
}

/** The next claimable intake row, to retry alone after a batch failed. */
export async function nextIntakeRow(ctx: AppContext<Db>): Promise<IntakeKey | null> {
  const [row] = await ctx.db.execute<{ project_id: string; id: string }>(
    sql`select project_id, id from event_intake where failed_at is null limit 1`,
  );
  return row ? { projectId: row.project_id, id: row.id } : null;
}

/**
 * Sets aside an intake row that failed on its own, so one bad row (a failing creation hook, say) cannot
 * stall the pipeline. The row stays in `event_intake` with its error, no longer claimed.
 */
export async function quarantineIntakeRow(
  ctx: AppContext<Db>,
  input: { key: IntakeKey; error: string },
): Promise<void> {
  const { key, error } = input;
  await ctx.db.execute(sql`
    update event_intake set failed_at = now(), error = ${error.slice(0, 2000)}
    where project_id = ${key.projectId}::uuid and id = ${key.id}::uuid and failed_at is null`);
}
