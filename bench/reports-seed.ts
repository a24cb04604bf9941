import postgres from "postgres";
import { ROLLUP_SHARDS } from "../lib/reports/add-message-rollups";

/*
 * The reports bench's data, written in SQL (`INSERT ... SELECT generate_series`, a million rows a
 * statement) on one connection: a project's users, the messages of its eight broadcasts and of its
 * journey's two send steps, the journey's entries, what the messages did (`message_engagement`), and the
 * hourly rollups the product would have written for all of it (every scope: project, template,
 * broadcast, journey, step; each message's counts in its shard), summed from those rows. Deterministic: every id, time and outcome is a
 * function of the row's number, so two runs seed the same data. Ids are UUIDv7s (version 7, variant 10)
 * built from the row's time, as the product's are.
 */

export interface Catalogue {
  projectId: string;
  /** Templates of broadcasts 1-4, broadcasts 5-8, the journey's first and second send step. */
  templates: { news: string; promo: string; welcome: string; nudge: string };
  broadcasts: string[];
  journeyId: string;
  entranceId: string;
}

export interface Seeded {
  users: number;
  entries: number;
  messages: number;
}

const DAY = 86_400_000;
const CHUNK = 1_000_000;

/** A UUIDv7 from milliseconds and a text salt (its random bits are the salt's MD5). */
const V7 = `create function pg_temp.v7(ms bigint, salt text) returns uuid language sql immutable as $$
  select (lpad(to_hex(ms), 12, '0') || '7' || substr(md5(salt), 1, 3) || '8' || substr(md5(salt), 4, 15))::uuid $$`;
/** A number in [0, 10000) from a message's id, the `k`-th of several independent ones. */
const SHARE = `create function pg_temp.share(id uuid, k int) returns int language sql immutable as $$
  select (('x' || substr(md5(id::text || k), 1, 7))::bit(28)::int % 10000) $$`;

/** Runs `fn(from, to)` over [0, n) in chunks of a million. */
async function chunks(n: number, fn: (from: number, to: number) => Promise<unknown>) {
  for (let from = 0; from < n; from += CHUNK) await fn(from, Math.min(n, from + CHUNK) - 1);
}

/**
 * Seeds `messages` messages for the catalogue's project over the last `days` days before `now`: half from
 * the eight broadcasts (each sent over two hours, spread over the period), half from the journey (entries
 * spread over the period, each sent `welcome` and every other one later `nudge`), a tenth as many users.
 * Opens, machine opens, clicks, unsubscribes and conversions per message, deliveries and bounces in the
 * rollups only (reports read rollups, never `message_events`).
 */
export async function seedMessages(
  url: string,
  c: Catalogue,
  opts: { messages: number; days: number; now: number; salt: string; log?: (msg: string) => void },
): Promise<Seeded> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  // Each part's time, so a slow seed says where it went.
  let mark = Date.now();
  const done = (what: string) => {
    opts.log?.(`  ${what} in ${((Date.now() - mark) / 1000).toFixed(1)} s`);
    mark = Date.now();
  };
  try {
    await sql`set synchronous_commit = off`;
    await sql`set work_mem = '256MB'`;
    await sql.unsafe(V7);
    await sql.unsafe(SHARE);
    const p = c.projectId;
    const salt = opts.salt;
    const start = opts.now - opts.days * DAY;
    const users = Math.max(100, Math.floor(opts.messages / 10));
    // The n-th user's id, recomputed wherever a message needs it.
    const userId = (n: string) => `pg_temp.v7(${start - 400 * DAY} + ${n}, 'u${salt}' || ${n})`;
    await chunks(users, (a, b) =>
      sql.unsafe(
        `insert into users (project_id, id, email, created_at, updated_at)
        select $1, ${userId("n")}, 'u' || n || '@bench-${salt}.test',
          to_timestamp((${start - 400 * DAY} + n) / 1000.0), to_timestamp((${start - 400 * DAY} + n) / 1000.0)
        from generate_series($2::int, $3::int) n`,
        [p, a, b],
      ),
    );

    done(`${users.toLocaleString("en")} users`);
    // Broadcasts: each to `perBroadcast` distinct users, sent over two hours from its start.
    const perBroadcast = Math.min(users, Math.floor(opts.messages / 2 / c.broadcasts.length));
    for (const [k, broadcastId] of c.broadcasts.entries()) {
      const from = start + Math.floor((k * (opts.days * DAY)) / c.broadcasts.length) + 3_600_000;
      const template = k < c.broadcasts.length / 2 ? c.templates.news : c.templates.promo;
      await chunks(perBroadcast, (a, b) =>
        sql.unsafe(
          `insert into messages (project_id, id, template_id, user_id, channel, state, attempts, recipient,
            broadcast_id, created_at, finished_at, next_attempt_at)
          select $1, pg_temp.v7(t - 1000, 'b${salt}-${k}-' || i), $2, ${userId("i")}, 'email', 'sent', 1,
            'u' || i || '@bench-${salt}.test', $3, to_timestamp((t - 1000) / 1000.0), to_timestamp(t / 1000.0),
            to_timestamp((t - 1000) / 1000.0)
          from generate_series($4::int, $5::int) i, lateral (select ${from}::bigint + (i::bigint * 7200000) / ${perBroadcast} as t) x`,
          [p, template, broadcastId, a, b],
        ),
      );
    }

    done("broadcast messages");
    // The journey: entries over the period (the last `waiting` still at the delay), each sent `welcome`
    // when it entered and every other one that left `nudge` a day later.
    const rest = opts.messages - perBroadcast * c.broadcasts.length;
    const entries = Math.max(10, Math.floor(rest / 1.5));
    const waiting = Math.min(1000, Math.floor(entries / 100));
    // Ends four days before now: a nudge a day after entering, and its opens up to three days later.
    const span = Math.max(1, opts.days - 4) * DAY;
    const enteredAt = (j: string) => `(${start}::bigint + (${j}::bigint * ${span}) / ${entries})`;
    await chunks(entries, (a, b) =>
      sql.unsafe(
        `insert into journey_entries (project_id, id, journey_id, entrance_id, user_id, event_id, context,
          entered_at, exited_at, step_key, state, wake_at, step_since)
        select $1, pg_temp.v7(${enteredAt("j")}, 'e${salt}' || j), $2, $3, ${userId(`(j % ${users})`)},
          pg_temp.v7(${enteredAt("j")}, 'v${salt}' || j), '{}', to_timestamp(${enteredAt("j")} / 1000.0),
          case when j < ${entries - waiting} then to_timestamp((${enteredAt("j")} + ${DAY + 2000}) / 1000.0) end,
          case when j >= ${entries - waiting} then 'wait' end,
          case when j >= ${entries - waiting} then 'waiting' else 'exited' end,
          case when j >= ${entries - waiting} then now() + interval '30 days' end,
          case when j >= ${entries - waiting} then to_timestamp((${enteredAt("j")} + 1000) / 1000.0) end
        from generate_series($4::int, $5::int) j`,
        [p, c.journeyId, c.entranceId, a, b],
      ),
    );
    done(`${entries.toLocaleString("en")} journey entries`);
    const entryId = (j: string) => `pg_temp.v7(${enteredAt(j)}, 'e${salt}' || ${j})`;
    for (const [step, template, offset, where] of [
      ["welcome", c.templates.welcome, 1000, "true"],
      ["nudge", c.templates.nudge, DAY + 1000, `j < ${entries - waiting} and j % 2 = 0`],
    ] as const)
      await chunks(entries, (a, b) =>
        sql.unsafe(
          `insert into messages (project_id, id, template_id, user_id, channel, state, attempts, recipient,
            journey_entry_id, journey_step_key, created_at, finished_at, next_attempt_at)
          select $1, pg_temp.v7(t - 500, 'j${salt}-${step}-' || j), $2, ${userId(`(j % ${users})`)}, 'email', 'sent', 1,
            'u' || (j % ${users}) || '@bench-${salt}.test', ${entryId("j")}, '${step}',
            to_timestamp((t - 500) / 1000.0), to_timestamp(t / 1000.0), to_timestamp((t - 500) / 1000.0)
          from generate_series($3::int, $4::int) j, lateral (select ${enteredAt("j")} + ${offset} as t) x
          where ${where}`,
          [p, template, a, b],
        ),
      );
    done("journey messages");
    const left = entries - waiting;
    const nudged = Math.ceil(left / 2);
    await sql`insert into journey_step_passes (project_id, journey_id, step_key, shard, passed)
      values (${p}, ${c.journeyId}, 'welcome', 0, ${entries}), (${p}, ${c.journeyId}, 'wait', 0, ${left}),
        (${p}, ${c.journeyId}, 'split', 0, ${left}), (${p}, ${c.journeyId}, 'nudge', 0, ${nudged}),
        (${p}, ${c.journeyId}, 'bye', 0, ${left})`;

    // What the messages did (each share computed once a message, `offset 0`, as in the rollups below): 30 %
    // opened by a person (most within a day), 8 % only by a machine, 6 % clicked, 0.4 % unsubscribed, 3 %
    // converted with a value.
    await sql.unsafe(
      `insert into message_engagement (project_id, message_id, opened_at, opens, machine_opened_at, machine_opens,
        clicked_at, clicks, unsubscribed_at, converted_at, conversion_value)
      select m.project_id, m.id,
        case when r < 3000 then o end, case when r < 3000 then 1 + r % 3 else 0 end,
        case when r >= 3000 then m.finished_at + interval '1 second' end, case when r >= 3000 then 1 else 0 end,
        case when r < 600 then o + interval '2 minutes' end, case when r < 600 then 1 else 0 end,
        case when r between 600 and 639 then o + interval '3 minutes' end,
        case when r < 300 then o + interval '12 minutes' end, case when r < 300 then (r % 100)::float8 end
      from messages m,
        lateral (select pg_temp.share(m.id, 1) as r offset 0) s,
        lateral (select m.finished_at + ((pg_temp.share(m.id, 2) % 4320) ^ 2 / 4320.0) * interval '1 minute' as o offset 0) t
      where m.project_id = $1 and r < 3800`,
      [p],
    );
    done("engagement");
    // The rollups add-message-rollups.ts would have written: every metric's first time per message, in
    // every scope of the message, by hour. Deliveries (95 %), bounces (2 %) and complaints (0.1 %) half a
    // minute after the send.
    // Summed per message group (template, broadcast, journey step) first and then spread over the scopes:
    // spreading each message's metrics over its five scopes first sent 45 rows a message through one
    // aggregate. `offset 0` computes the message's delivery share once, not in every `case` below (the
    // function is not inlined: `uuid::text || int` is not immutable): 25 s for 100,000 messages before, 3 s after.
    await sql.unsafe(
      `insert into message_rollups (project_id, scope, scope_id, metric, hour, shard, count, value)
      with g as (
        select m.project_id, m.template_id, m.broadcast_id, e.journey_id, m.journey_step_key, k.metric,
          date_trunc('hour', k.at) as hour, hashtext(m.id::text) & ${ROLLUP_SHARDS - 1} as shard, count(*) as n,
          coalesce(sum(k.v), 0) as v
        from messages m
        left join journey_entries e on m.journey_entry_id is not null and e.project_id = m.project_id and e.id = m.journey_entry_id
        left join message_engagement g on g.project_id = m.project_id and g.message_id = m.id,
        lateral (select pg_temp.share(m.id, 3) as d offset 0) x
        cross join lateral (values
          ('sent', m.finished_at, null::float8),
          ('delivered', case when d < 9500 then m.finished_at + interval '30 seconds' end, null),
          ('bounced', case when d between 9500 and 9699 then m.finished_at + interval '30 seconds' end, null),
          ('complained', case when d >= 9990 then m.finished_at + interval '1 hour' end, null),
          ('opened', g.opened_at, null),
          ('opened_machine', g.machine_opened_at, null),
          ('clicked', g.clicked_at, null),
          ('unsubscribed', g.unsubscribed_at, null),
          ('converted', g.converted_at, g.conversion_value)
        ) as k(metric, at, v)
        where m.project_id = $1 and k.at is not null
        group by 1, 2, 3, 4, 5, 6, 7, 8
      )
      select g.project_id, s.scope, s.scope_id, g.metric, g.hour, g.shard, sum(g.n), sum(g.v)
      from g cross join lateral (values
        ('project', g.project_id::text),
        ('template', g.template_id::text),
        ('broadcast', g.broadcast_id::text),
        ('journey', g.journey_id::text),
        ('step', g.journey_id::text || '/' || g.journey_step_key)
      ) as s(scope, scope_id)
      where s.scope_id is not null
      group by 1, 2, 3, 4, 5, 6`,
      [p],
    );
    // The daily rows the same writers add beside the hourly ones (lib/reports/rollup-rows.ts).
    await sql.unsafe(
      `insert into message_rollups_daily (project_id, scope, scope_id, metric, day, shard, count, value)
      select project_id, scope, scope_id, metric, date_trunc('day', hour, 'UTC'), shard, sum(count), sum(value)
      from message_rollups where project_id = $1 group by 1, 2, 3, 4, 5, 6`,
      [p],
    );
    done("rollups");
    const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from messages where project_id = ${p}`;
    return { users, entries, messages: n };
  } finally {
    await sql.end();
  }
}
