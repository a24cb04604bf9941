import { type SQL, sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows, uuidArray } from "@/lib/db/sql";
import type { Condition } from "@/lib/lists/rules";
import { matchesCondition } from "./match-condition";
import { exitsOf } from "./step-graph";
import type { Step } from "./step-schema";
import { waitKey } from "./walk";
import { type Move, writeMoves } from "./write-moves";

/** (Organization event, member) pairs one statement probes at most: a large organization is paged. */
export const MEMBER_PAGE = 5000;

/** An event that may release entries, as the probes return it (only events that found something). */
interface Releasing {
  id: string;
  name: string;
  data: Record<string, unknown>;
  received_at: string;
}

/** A waiting entry an event's key found (not yet locked). */
interface Hit {
  entry: string;
  wait_event: string;
  wait_key: string;
  event: Releasing;
}

/** A candidate whose key SQL does not make (its `same_as` value is not a string, boolean, null or integer). */
interface Unkeyed {
  event: Releasing;
  user_id: string;
  same_as: string;
  v: unknown;
}

/** What each probe statement returns, one jsonb per row. */
type ProbeRow =
  | ({ kind: "hit" } & Hit)
  | ({ kind: "unkeyed" } & Unkeyed)
  | { kind: "org"; org: string; ids: string[] }
  | { kind: "page"; org: string; n: number; last: string };

interface Locked {
  id: string;
  journey_id: string;
  journey_name: string;
  user_id: string;
  event_id: string;
  context: Record<string, unknown>;
  step_key: string;
  step_since: string;
  waiting_for: { condition?: Condition[] | null };
  steps: Step[];
}

/**
 * Pipeline step 4's first half: the batch's events release the entries waiting for them. Each event is
 * looked up, for its user, by the keys the project's wait steps give that name (the user alone for a wait
 * without `same_as`; the user with each `same_as` key and the event's value there; a list's membership
 * events by the list) on journey_entries_wait_idx, so the cost follows the batch, not the number of
 * waiting entries. The events are read, keyed and probed in SQL: only what a probe finds comes back.
 * An organization event is looked up for each member of the organization, as it enters each member at
 * an entrance (the spec: an organization event that triggers a journey evaluates each member), the
 * members joined in SQL a page of MEMBER_PAGE (event, member) pairs per statement. A waiting entry whose
 * condition holds on an event received after it began to wait passes its wait ("released by event
 * <name> <id>") and is due at its next step (the due loop runs it), or exits; in the step's transaction,
 * with its done-marker. The probes follow the steps as they are now: an edit that changes what a wait
 * awaits re-keys the entries waiting there (rekey-waits.ts).
 */
export async function releaseWaits(ctx: ProjectContext, batch: { ids: string[]; since?: string }): Promise<number> {
  if (!batch.ids.length) return 0;
  const hits: Hit[] = [];
  const unkeyed: Unkeyed[] = [];
  const orgs: { org: string; ids: string[]; after: string | null }[] = [];
  const take = (rows: ProbeRow[]) => {
    const pages = new Map<string, { n: number; last: string }>();
    for (const r of rows)
      if (r.kind === "hit") hits.push(r);
      else if (r.kind === "unkeyed") unkeyed.push(r);
      else if (r.kind === "org") orgs.push({ org: r.org, ids: r.ids, after: null });
      else pages.set(r.org, r);
    return pages;
  };
  take(
    await probe(
      ctx,
      sql`
      ev as (select * from ${eventsSql(ctx.projectId, batch)} where e.name in (select name from shapes)),
      cand as (
        select ev.id, ev.name, ev.data, ev.received_at, ev.user_id, s.same_as
        from ev join shapes s on s.name = ev.name where ev.user_id is not null
      ),
      orgs as (
        select jsonb_build_object('kind', 'org', 'org', ev.organization_id, 'ids', jsonb_agg(ev.id)) as r
        from ev where ev.user_id is null and ev.organization_id is not null group by ev.organization_id
      )`,
      sql`union all select r from orgs`,
    ),
  );
  // Organization events: their members in pages, each organization's page sized so that a statement
  // probes at most MEMBER_PAGE (event, member) pairs however many organizations and members there are.
  while (orgs.length) {
    const chunk = orgs.splice(0, 100);
    const ids = chunk.flatMap((o) => o.ids);
    const limit = Math.max(1, Math.floor(MEMBER_PAGE / ids.length));
    const pages = take(
      await probe(
        ctx,
        sql`
        o as (select * from jsonb_to_recordset(${JSON.stringify(chunk.map(({ org, after }) => ({ org, after })))}::jsonb)
          as o(org uuid, after uuid)),
        members as (
          select o.org, m.user_id from o cross join lateral (
            select om.user_id from organization_members om
            where om.project_id = ${ctx.projectId}::uuid and om.organization_id = o.org
              and (o.after is null or om.user_id > o.after)
            order by om.user_id limit ${limit}) m
        ),
        -- Only the organization events the first statement found, read again by id.
        ev as (select * from ${eventsSql(ctx.projectId, { ids, since: batch.since })}),
        cand as (
          select ev.id, ev.name, ev.data, ev.received_at, m.user_id, s.same_as
          from members m join ev on ev.organization_id = m.org join shapes s on s.name = ev.name
        )`,
        sql`union all select jsonb_build_object('kind', 'page', 'org', org, 'n', count(*),
          'last', (array_agg(user_id order by user_id desc))[1]) from members group by org`,
      ),
    );
    for (const o of chunk) {
      const page = pages.get(o.org);
      if (page && page.n >= limit) orgs.push({ ...o, after: page.last });
    }
  }
  // Values SQL does not key as JavaScript does (numbers with a fraction, objects, arrays): keyed here.
  if (unkeyed.length) {
    const probes = unkeyed.map((u, ord) => ({
      name: u.event.name,
      key: waitKey(u.user_id, u.same_as, u.v),
      ord,
    }));
    const found = await queryRows<{ id: string; wait_event: string; wait_key: string; ord: number }>(
      ctx.db,
      sql`
      select e.id, e.wait_event, e.wait_key, p.ord
      from jsonb_to_recordset(${JSON.stringify(probes)}::jsonb) as p(name text, key text, ord int)
      join journey_entries e on e.project_id = ${ctx.projectId}::uuid and e.wait_event = p.name and e.wait_key = p.key
      where e.state = 'waiting'`,
    );
    for (const f of found)
      hits.push({ entry: f.id, wait_event: f.wait_event, wait_key: f.wait_key, event: unkeyed[f.ord]!.event });
  }
  if (!hits.length) return 0;
  return release(ctx, hits);
}

/**
 * The batch's events by id (`e`), each probe kept to the partitions from `since` on when the job has it;
 * an event dated earlier (a writer that left its time out) is found in the older ones.
 */
function eventsSql(projectId: string, { ids, since }: { ids: string[]; since?: string }): SQL {
  const cols = sql`x.id, x.name, x.user_id, x.organization_id, x.data, x.received_at`;
  const at = (bound: SQL) => sql`
    (select ${cols} from events x where x.project_id = ${projectId}::uuid and x.id = k.id ${bound} limit 1)`;
  const lookup = since
    ? sql`${at(sql`and x.occurred_at >= ${since}::timestamptz`)} union all ${at(sql`and x.occurred_at < ${since}::timestamptz`)}`
    : at(sql``);
  return sql`(select e.* from unnest(${uuidArray([...new Set(ids)])}) as k(id) cross join lateral (${lookup} limit 1) e) e`;
}

/**
 * One probe statement: `cand` (an event's id, name, data, received_at, the user it stands for and a wait's
 * `same_as`) keyed as waitKey (walk.ts) keys it, for the values whose JSON text is the same in PostgreSQL
 * and JavaScript (strings, booleans, null, integers of up to 15 digits); the rest come back unkeyed.
 */
async function probe(ctx: ProjectContext, ctes: SQL, more: SQL): Promise<ProbeRow[]> {
  const event = sql`jsonb_build_object('id', k.id, 'name', k.name, 'data', k.data, 'received_at', k.received_at)`;
  const rows = await queryRows<{ r: ProbeRow }>(
    ctx.db,
    sql`
    with shapes as (
      -- The \`same_as\` keys of the project's event waits by name (null: a wait without one); a list's
      -- membership events are keyed by the list.
      select distinct s -> 'event' ->> 'name' as name, s -> 'event' ->> 'same_as' as same_as
      from journeys j cross join lateral jsonb_array_elements(j.steps) s
      where j.project_id = ${ctx.projectId}::uuid and s ->> 'kind' = 'wait'
      union select 'list.user.added', 'list_id' union select 'list.user.removed', 'list_id'
    ),
    ${ctes},
    valued as (select c.*, coalesce(c.data -> c.same_as, 'null') as v from cand c),
    keyed as materialized (
      select c.*, case
        when c.same_as is null then c.user_id::text
        when jsonb_typeof(c.v) in ('string', 'boolean', 'null')
          or (jsonb_typeof(c.v) = 'number' and c.v::text ~ '^(0|-?[1-9][0-9]{0,14})$')
          then c.user_id::text || '|' || c.same_as || '=' || c.v::text
      end as key
      from valued c
    )
    select case when k.key is null
      then jsonb_build_object('kind', 'unkeyed', 'user_id', k.user_id, 'same_as', k.same_as, 'v', k.v, 'event', ${event})
      else jsonb_build_object('kind', 'hit', 'entry', w.id, 'wait_event', w.wait_event, 'wait_key', w.wait_key, 'event', ${event})
    end as r
    from keyed k
    -- A probe of journey_entries_wait_idx per key (offset 0 keeps it a lateral probe, never a scan of the waits).
    left join lateral (
      select w.id, w.wait_event, w.wait_key from journey_entries w
      where w.project_id = ${ctx.projectId}::uuid and w.wait_event = k.name and w.wait_key = k.key and w.state = 'waiting'
      offset 0) w on true
    where k.key is null or w.id is not null
    ${more}`,
  );
  return rows.map((x) => x.r);
}

/**
 * Locks the entries the probes found, in id order, each still waiting at the key it was found by (not
 * SKIP LOCKED: an entry the due loop holds is waited for, and the row is then checked again, so one it
 * moved on is no longer found), and moves those an event releases.
 */
async function release(ctx: ProjectContext, hits: Hit[]): Promise<number> {
  const keys = [...new Map(hits.map((h) => [h.entry, { id: h.entry, ev: h.wait_event, key: h.wait_key }])).values()];
  const locked = await queryRows<Locked>(
    ctx.db,
    sql`
    select e.id, e.journey_id, j.name as journey_name, e.user_id, e.event_id, e.context, e.step_key,
      e.step_since::text, e.waiting_for, j.steps
    from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as p(id uuid, ev text, key text)
    join journey_entries e on e.project_id = ${ctx.projectId}::uuid and e.id = p.id
    join journeys j on j.project_id = e.project_id and j.id = e.journey_id
    where e.state = 'waiting' and e.wait_event = p.ev and e.wait_key = p.key
    order by e.id
    for update of e`,
  );
  const now = new Date();
  const moves: Move[] = [];
  for (const w of locked) {
    const since = new Date(w.step_since);
    const release = hits
      .filter((h) => h.entry === w.id)
      .map((h) => ({ ...h.event, receivedAt: new Date(h.event.received_at) }))
      .filter((e) => e.receivedAt >= since && (w.waiting_for.condition ?? []).every((c) => matchesCondition(e.data, c)))
      .sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime())[0];
    if (!release) continue;
    const i = w.steps.findIndex((s) => s.key === w.step_key);
    const next = i >= 0 ? (exitsOf(w.steps, i)[0]?.to ?? null) : null;
    moves.push({
      entry: {
        projectId: ctx.projectId,
        id: w.id,
        journeyId: w.journey_id,
        journeyName: w.journey_name,
        userId: w.user_id,
        eventId: w.event_id,
        context: w.context,
        stepKey: w.step_key,
        state: "waiting",
        stepSince: since,
        wakeAt: null,
        waitingFor: w.waiting_for,
        userZone: null,
        projectZone: null,
      },
      path: [
        {
          stepKey: w.step_key,
          kind: "wait",
          enteredAt: since,
          leftAt: now,
          outcome: `released by event ${release.name} ${release.id}`,
        },
      ],
      end: {
        stepKey: next,
        state: next ? "active" : "exited",
        stepSince: now,
        wakeAt: next ? now : null,
        wakeAfter: null,
        waitingFor: null,
        waitEvent: null,
        waitKey: null,
      },
    });
  }
  await writeMoves(ctx, { moves, now });
  return moves.length;
}
