import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import { queryRows } from "@/lib/db/sql";
import { MESSAGES_CHANNEL } from "@/lib/messages/notify";
import { decideBroadcastTest, HELD_REASON, HELD_UNTIL, releaseHeld, testArm } from "./variant-test";

/** The widest offset of a time zone ahead of UTC: a broadcast in users' time zones starts this much early. */
const MAX_ZONE_AHEAD = "14 hours";

/** List members given their messages per transaction when a broadcast starts (BROADCAST_START_CHUNK). */
export const startChunk = (env = process.env) => Number(env.BROADCAST_START_CHUNK ?? 5000);

/**
 * One round of the broadcasts' due loop (worker/broadcast-loop.ts), off the message sender's path: the
 * next chunk of one due broadcast's start, else closing finished ones. A start is a series of bounded
 * transactions, each locking the broadcast, making the next `chunk` list members (by user id, after
 * `started_through`) one queued message each (unique by (broadcast, user): a second worker or a restart
 * adds none) due at `send_at` or, in users' time zones, at its wall-clock time in each one's zone, and
 * moving `started_through` on; the chunk that comes back short makes it `sending`. A user's zone
 * PostgreSQL does not know falls back to UTC, and the waiting message's reason says so (the sender
 * replaces it with the outcome's). A start killed midway
 * resumes after its last chunk, and the messages of its first chunks are already on their way. A
 * broadcast is `done` once none of its messages is queued. With an A/B test, each member's message is of its
 * arm (variant-test.ts): a variant's, or held for the winner, which a later round decides and releases in
 * chunks. Answers 1 when it started, decided or released a chunk, else 0.
 */
export async function tickBroadcasts(ctx: AppContext<Db>, input: { chunk: number }): Promise<number> {
  const moved = await withTransaction(ctx.db, async (tx) => {
    const [b] = await queryRows<{ project_id: string; id: string }>(
      tx,
      sql`select project_id, id from broadcasts
        where state = 'scheduled'
          and send_at - case when in_user_timezone then ${MAX_ZONE_AHEAD}::interval else interval '0' end <= now()
        order by send_at limit 1 for update skip locked`,
    );
    if (!b) return false;
    // A chunk is bounded by its size; the timeout keeps a stuck one from holding the loop (it is tried again).
    await tx.execute(sql`set local statement_timeout = '60s'`);
    // What every recipient renders, whatever is edited later: the template's version and build and the
    // project's snippet versions, as they are when the first chunk starts.
    await tx.execute(sql`
      update broadcasts b set pinned = jsonb_build_object(
        'template_version_id', t.version_id, 'build_id', t.build_id,
        'snippets', coalesce((select jsonb_object_agg(s.name, s.version_id) from snippets s
          where s.project_id = b.project_id and s.version_id is not null), '{}'::jsonb),
        'variants', (select jsonb_agg(jsonb_build_object('template_version_id', vt.version_id, 'build_id', vt.build_id)
            order by v.o)
          from jsonb_array_elements(b.variants) with ordinality as v(x, o)
          left join message_templates vt on vt.project_id = b.project_id and vt.id = (v.x->>'template_id')::uuid))
      from message_templates t
      where b.project_id = ${b.project_id}::uuid and b.id = ${b.id}::uuid and b.pinned is null
        and t.project_id = b.project_id and t.id = b.template_id`);
    const [chunk] = await queryRows<{ n: number; last: string | null }>(
      tx,
      sql`
      -- Zones compare case-insensitively, as everywhere (lib/time-zones): a zone stored as \`europe/paris\` is Paris.
      with zones as materialized (select distinct on (lower(name)) lower(name) as key, name from pg_timezone_names
        order by lower(name), name),
      b as (select * from broadcasts where project_id = ${b.project_id}::uuid and id = ${b.id}::uuid),
      chunk as (
        select lm.user_id from b join list_members lm on lm.project_id = b.project_id and lm.list_id = b.list_id
        where b.started_through is null or lm.user_id > b.started_through
        order by lm.user_id limit ${input.chunk}),
      arm as (${testArm}),
      added as (
        insert into messages (project_id, template_id, template_version_id, template_build_id, user_id, channel,
          broadcast_id, variant, next_attempt_at, reason)
        select b.project_id,
          case when a.variant >= 0 then (b.variants->a.variant::int->>'template_id')::uuid else b.template_id end,
          (case when a.variant >= 0 then b.pinned->'variants'->a.variant::int else b.pinned end->>'template_version_id')::uuid,
          (case when a.variant >= 0 then b.pinned->'variants'->a.variant::int else b.pinned end->>'build_id')::uuid,
          c.user_id, t.channel, b.id, a.variant,
          case when a.variant = -1 then ${HELD_UNTIL}::timestamptz
            when b.in_user_timezone then (b.send_at at time zone 'UTC') at time zone coalesce(z.name, 'UTC')
          else b.send_at end,
          case when a.variant = -1 then ${HELD_REASON}
            when b.in_user_timezone and u.timezone is not null and z.name is null
            then 'time zone "' || left(u.timezone, 64) || '" unknown: send_at read as UTC' end
        from b join message_templates t on t.project_id = b.project_id and t.id = b.template_id
        cross join chunk c
        join arm a on a.user_id = c.user_id
        join users u on u.project_id = b.project_id and u.id = c.user_id
        left join zones z on z.key = lower(u.timezone)
        on conflict do nothing
        returning 1)
      select (select count(*) from chunk)::int as n, (select max(user_id::text) from chunk) as last,
        (select count(*) from added)::int as added`,
    );
    const done = chunk!.n < input.chunk;
    await tx.execute(sql`update broadcasts set started_at = coalesce(started_at, now()), updated_at = now(),
        started_through = coalesce(${chunk!.last}::uuid, started_through),
        state = case when ${done} then 'sending' else state end,
        recipients = case when ${done} then (select count(*) from messages m
          where m.project_id = ${b.project_id}::uuid and m.broadcast_id = ${b.id}::uuid) end
      where project_id = ${b.project_id}::uuid and id = ${b.id}::uuid`);
    await tx.execute(sql`select pg_notify(${MESSAGES_CHANNEL}, '')`);
    return true;
  });
  if (moved) return 1;
  if (await decideBroadcastTest(ctx)) return 1;
  if (await releaseHeld(ctx, { chunk: input.chunk })) return 1;
  await ctx.db.execute(sql`
    update broadcasts b set state = case when b.state = 'sending' then 'done' else b.state end,
      finished_at = now(), updated_at = now()
    where b.state in ('sending', 'cancelled') and b.finished_at is null and b.started_at is not null
      and not exists (select 1 from messages m where m.project_id = b.project_id and m.broadcast_id = b.id and m.state = 'queued')`);
  return 0;
}
