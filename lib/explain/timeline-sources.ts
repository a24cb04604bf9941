import { sql, type SQL } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import type { TimelineItem } from "./schemas";

/** A position in the feed: the last item's time (microseconds, UTC text) and id. */
export type TimelineCursor = { at: string; id: string };

/** A row as every source selects it: `at` as sortable UTC text with microseconds. */
export type SourceRow = {
  at: string;
  id: string;
  kind: TimelineItem["kind"];
  title: string;
  event_id: string | null;
  detail: Record<string, unknown>;
};

/** `t` as sortable UTC text (microseconds), the form cursors carry and items are merged by. */
export const atText = (t: SQL) => sql`to_char(${t} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Before the cursor on (time, id), written so the time bound is an index condition (`t <= c`) on indexes
 * that end in the time column; the id only breaks ties.
 */
export function before(t: SQL, id: SQL, c: TimelineCursor | null): SQL {
  if (!c) return sql`true`;
  return sql`${t} <= ${c.at}::timestamptz and (${t} < ${c.at}::timestamptz or ${id} < ${c.id}::uuid)`;
}

type TimelineSource = {
  name: string;
  /** The source's one statement: at most `limit` rows before the cursor, newest first. */
  query: (ctx: ProjectContext, userId: string, c: TimelineCursor | null, limit: number) => SQL;
};

/**
 * A source that names what its rows refer to: the user's newest `limit` rows of `table` (as `x`) before the
 * cursor on `time`, read first, and only then `join`ed, so the join touches at most `limit` rows. `select`
 * is everything after `at, id`.
 */
function newestJoined(
  ctx: ProjectContext,
  userId: string,
  c: TimelineCursor | null,
  limit: number,
  o: { table: string; time: string; also?: SQL; select: SQL; join: SQL },
): SQL {
  const t = sql.raw(`x.${o.time}`);
  return sql`
        select ${atText(t)} as at, x.id, ${o.select}
        from (select * from ${sql.raw(o.table)} x
          where x.project_id = ${ctx.projectId}::uuid and x.user_id = ${userId}::uuid${o.also ? sql` and ${o.also}` : sql``}
            and ${before(t, sql`x.id`, c)}
          order by ${t} desc, x.id desc limit ${limit}) x
        ${o.join}
        order by ${t} desc, x.id desc`;
}

/** A source read by `newestJoined` from `o.table`, the table of its name unless it says another. */
const joinedSource = (
  name: string,
  o: Omit<Parameters<typeof newestJoined>[4], "table"> & { table?: string },
): TimelineSource => ({
  name,
  query: (ctx, userId, c, limit) => newestJoined(ctx, userId, c, limit, { table: name, ...o }),
});

/** The `table` row (as `alias`) that `x.<key>` refers to, in the same project: its fields are null once deleted. */
const refersTo = (table: string, alias: string, key: string) =>
  sql.raw(`left join ${table} ${alias} on ${alias}.project_id = x.project_id and ${alias}.id = x.${key}`);

/**
 * The feeds a user's timeline merges. Each reads at most `limit` rows newest first from an index that
 * starts (project, user, time), so a page costs the same at any depth. Another kind of item is one more
 * entry here.
 */
export const TIMELINE_SOURCES: TimelineSource[] = [
  {
    // The user's events; list changes are shown from list_changes (with their cause), not as their
    // `list.user.*` events, `scheduled.*` events are the user's schedule firings, and `journey.user.exited`
    // events are their exits (every exit records one, in the exit's transaction: the entries keep no index
    // of exits, which each exit would write into, docs/decisions/0025).
    name: "events",
    query: (ctx, userId, c, limit) =>
      sql`
        select ${atText(sql`e.occurred_at`)} as at, e.id,
          case when e.name like 'scheduled.%' then 'schedule_fired' when e.name = 'journey.user.exited' then 'journey_exited'
            else 'event' end as kind,
          case when e.name = 'journey.user.exited' then 'Exited ' || coalesce(e.data->>'journey_name', 'a journey') else e.name end as title,
          e.id as event_id,
          case when e.name = 'journey.user.exited'
            then jsonb_build_object('journey_id', e.data->'journey_id', 'journey_name', e.data->'journey_name', 'entry_id', e.data->'entry_id')
            else jsonb_build_object('name', e.name, 'origin', e.origin, 'data', e.data) end as detail
        from events e
        where e.project_id = ${ctx.projectId}::uuid and e.user_id = ${userId}::uuid
          and e.name not in ('list.user.added', 'list.user.removed')
          and ${before(sql`e.occurred_at`, sql`e.id`, c)}
        order by e.occurred_at desc, e.id desc limit ${limit}`,
  },
  joinedSource("list_changes", {
    time: "at",
    select: sql`case when x.change = 'added' then 'list_added' else 'list_removed' end as kind,
      case when x.change = 'added' then 'Added to ' else 'Removed from ' end || coalesce(l.name, 'a deleted list') as title,
      x.cause_event_id as event_id,
      jsonb_build_object('list_id', x.list_id, 'list_name', l.name, 'cause', x.cause, 'by', x.actor) as detail`,
    join: refersTo("lists", "l", "list_id"),
  }),
  joinedSource("journey_entries", {
    time: "entered_at",
    select: sql`'journey_entered' as kind, 'Entered ' || coalesce(j.name, 'a deleted journey') as title,
      x.event_id, jsonb_build_object('journey_id', x.journey_id, 'journey_name', j.name, 'entry_id', x.id) as detail`,
    join: refersTo("journeys", "j", "journey_id"),
  }),
  // Each journey step the user passed, with its outcome (the entry's path, step by step).
  joinedSource("journey_steps", {
    table: "journey_entry_steps",
    time: "left_at",
    select: sql`'journey_step' as kind, coalesce(j.name, 'A deleted journey') || ' · ' || x.step_key || ': ' || x.outcome as title,
      null::uuid as event_id, jsonb_build_object('journey_id', x.journey_id, 'journey_name', j.name, 'entry_id', x.entry_id,
        'step_key', x.step_key, 'kind', x.kind, 'outcome', x.outcome) as detail`,
    join: refersTo("journeys", "j", "journey_id"),
  }),
  joinedSource("subscription_changes", {
    time: "created_at",
    select: sql`'subscription_changed' as kind,
      coalesce(g.name, x.channel::text) || ': ' || coalesce(x.previous_state::text, 'unset') || ' → ' || coalesce(x.state::text, 'unset') as title,
      null::uuid as event_id,
      jsonb_build_object('group_id', x.group_id, 'group_name', g.name, 'channel', x.channel, 'previous_state', x.previous_state,
        'state', x.state, 'source', x.source) as detail`,
    join: refersTo("subscription_groups", "g", "group_id"),
  }),
  // Messages to destinations made from the user's events (destination_deliveries_user_idx).
  joinedSource("deliveries", {
    table: "destination_deliveries",
    time: "created_at",
    select: sql`'delivery' as kind,
      x.event_name || ' to ' || coalesce(d.name, 'a deleted destination') || ': ' || x.state as title,
      x.event_id,
      jsonb_build_object('destination_id', x.destination_id, 'destination_name', d.name, 'state', x.state,
        'last_status', x.last_status, 'finished_at', x.finished_at, 'next_attempt_at', x.next_attempt_at) as detail`,
    join: refersTo("destinations", "d", "destination_id"),
  }),
  // E-mail and SMS messages to the user (journey steps, broadcasts), at the time each was made, with
  // its state now and why it was skipped or failed (messages_user_idx).
  joinedSource("messages", {
    time: "created_at",
    select: sql`'message' as kind,
      coalesce(t.name, 'A deleted template') || ' (' || x.channel || '): ' || x.state
        || coalesce(' (' || x.reason || ')', '') as title,
      null::uuid as event_id,
      jsonb_build_object('message_id', x.id, 'template_id', x.template_id, 'template_name', t.name,
        'channel', x.channel, 'state', x.state, 'reason', x.reason, 'attempts', x.attempts,
        'recipient', x.recipient, 'subject', x.subject, 'broadcast_id', x.broadcast_id,
        'journey_entry_id', x.journey_entry_id, 'journey_step_key', x.journey_step_key,
        'finished_at', x.finished_at) as detail`,
    join: refersTo("message_templates", "t", "template_id"),
  }),
];
