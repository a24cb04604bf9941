import { sql } from "drizzle-orm";
import type { EventRow } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { matchesCondition } from "@/lib/journeys/match-condition";
import type { Condition } from "@/lib/lists/rules";
import { addMessageRollups } from "./add-message-rollups";
import { upsertRollups } from "./rollup-rows";

interface GoalRow {
  owner_kind: "broadcast" | "journey";
  owner_id: string;
  event: string;
  condition: Condition[] | null;
  within: string;
  value_path: string | null;
}

function valueAt(data: unknown, path: string | null): number | null {
  if (!path) return null;
  let v: unknown = data;
  for (const k of path.replace(/^data\./, "").split(".")) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
    v = Object.hasOwn(v, k) ? (v as Record<string, unknown>)[k] : undefined;
  }
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}

/**
 * Pipeline step 4's conversions, in its transaction: each user event a goal names (and whose data meets
 * the goal's condition) converts the latest message of that goal's broadcast or journey sent to the user
 * within the goal's window before the event, unless that message converted already. Each message converts
 * once (its engagement row's `converted_at` is set only while null), with the event's value at
 * `value_path`, and counts `converted` in the rollups at the event's time.
 */
export async function recordConversions(ctx: ProjectContext, events: EventRow[]): Promise<number> {
  const named = events.filter((e) => e.userId);
  if (!named.length) return 0;
  const names = [...new Set(named.map((e) => e.name))];
  const goals = await queryRows<GoalRow>(
    ctx.db,
    sql`select owner_kind, owner_id, event, condition, within, value_path from campaign_goals
      where project_id = ${ctx.projectId}::uuid and event = any(${`{${names.map((n) => JSON.stringify(n)).join(",")}}`}::text[])`,
  );
  if (!goals.length) return 0;
  const byEvent = Map.groupBy(goals, (g) => g.event);
  const pairs = named.flatMap((e, ord) =>
    (byEvent.get(e.name) ?? [])
      .filter((g) => !g.condition || g.condition.every((c) => matchesCondition(e.data as Record<string, unknown>, c)))
      .map((g) => ({
        ord,
        kind: g.owner_kind,
        owner: g.owner_id,
        user_id: e.userId,
        at: new Date(e.occurredAt).toISOString(),
        within: g.within,
        value: valueAt(e.data, g.value_path),
      })),
  );
  if (!pairs.length) return 0;
  const converted = await queryRows<{ message_id: string; converted_at: string; conversion_value: number | null }>(
    ctx.db,
    sql`
    with c as (
      select * from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb)
        as c(ord int, kind text, owner uuid, user_id uuid, at timestamptz, within text, value float8)
    ), picked as (
      select c.ord, c.at, c.value, m.id from c cross join lateral (
        select m.id from messages m
        where m.project_id = ${ctx.projectId}::uuid and m.user_id = c.user_id and m.state = 'sent'
          and m.finished_at <= c.at and m.finished_at >= c.at - c.within::interval
          and (case when c.kind = 'broadcast' then m.broadcast_id = c.owner
            else exists (select 1 from journey_entries e where e.project_id = m.project_id
              and e.id = m.journey_entry_id and e.journey_id = c.owner) end)
        order by m.finished_at desc limit 1) m
    ), first as (
      select distinct on (id) id, at, value from picked order by id, at, ord
    )
    insert into message_engagement as e (project_id, message_id, converted_at, conversion_value)
    select ${ctx.projectId}::uuid, id, at, value from first order by id
    on conflict (project_id, message_id) do update
      set converted_at = excluded.converted_at, conversion_value = excluded.conversion_value
      where e.converted_at is null
    returning e.message_id, e.converted_at, e.conversion_value`,
  );
  await addMessageRollups(
    ctx,
    converted.map((r) => ({ id: r.message_id, metric: "converted", at: r.converted_at, value: r.conversion_value })),
  );
  await convertSplitEntries(
    ctx,
    pairs.filter((x) => x.kind === "journey"),
  );
  return converted.length;
}

/**
 * A journey goal's event also converts the user's passages of that journey's splits within the goal's
 * window before it, each once, message or not: so a split test on conversions compares a path that sends
 * nothing (a hold-out) with one that does.
 */
async function convertSplitEntries(
  ctx: ProjectContext,
  pairs: { ord: number; owner: string; user_id: string | null; at: string; within: string }[],
): Promise<void> {
  if (!pairs.length) return;
  await ctx.db.execute(
    upsertRollups(
      sql`select ${ctx.projectId}::uuid as project_id, 'split' as scope,
        journey_id::text || '/' || step_key || '/' || path as scope_id, 'converted' as metric,
        date_trunc('hour', converted_at) as hour, 0::smallint as shard, count(*) as count, 0::float8 as value
      from first group by 3, 5`,
      sql`c as (
        select * from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb)
          as c(ord int, owner uuid, user_id uuid, at timestamptz, within text)
      ), hit as (
        select distinct on (p.entry_id, p.step_key) p.entry_id, p.step_key, c.at
        from c join journey_split_entries p on p.project_id = ${ctx.projectId}::uuid and p.user_id = c.user_id
          and p.journey_id = c.owner and p.converted_at is null
          and p.entered_at <= c.at and p.entered_at >= c.at - c.within::interval
        order by p.entry_id, p.step_key, c.at, c.ord
      ), first as (
        update journey_split_entries p set converted_at = hit.at from hit
        where p.project_id = ${ctx.projectId}::uuid and p.entry_id = hit.entry_id and p.step_key = hit.step_key
          and p.converted_at is null
        returning p.journey_id, p.step_key, p.path, p.converted_at
      )`,
    ),
  );
}
