import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import { queryRows } from "@/lib/db/sql";
import { MESSAGES_CHANNEL } from "@/lib/messages/notify";

/** The widest offset of a time zone ahead of UTC: a broadcast in users' time zones starts this much early. */
const MAX_ZONE_AHEAD = "14 hours";

/**
 * Starts due broadcasts and closes finished ones. Starting is one transaction per broadcast: the list's
 * members at that moment become one queued message each (unique by (broadcast, user), so a second worker
 * or a restart adds none), due at `send_at` or, in users' time zones, at its wall-clock time in each
 * one's zone. A broadcast is `done` once none of its messages is queued.
 */
export async function tickBroadcasts(ctx: AppContext<Db>): Promise<void> {
  for (;;) {
    const started = await withTransaction(ctx.db, async (tx) => {
      const [b] = await queryRows<{ project_id: string; id: string }>(
        tx,
        sql`select project_id, id from broadcasts
          where state = 'scheduled'
            and send_at - case when in_user_timezone then ${MAX_ZONE_AHEAD}::interval else interval '0' end <= now()
          order by send_at limit 1 for update skip locked`,
      );
      if (!b) return false;
      // What every recipient renders, whatever is edited later: the template's version and build and the
      // project's snippet versions, now.
      await tx.execute(sql`
        update broadcasts b set pinned = jsonb_build_object(
          'template_version_id', t.version_id, 'build_id', t.build_id,
          'snippets', coalesce((select jsonb_object_agg(s.name, s.version_id) from snippets s
            where s.project_id = b.project_id and s.version_id is not null), '{}'::jsonb))
        from message_templates t
        where b.project_id = ${b.project_id}::uuid and b.id = ${b.id}::uuid
          and t.project_id = b.project_id and t.id = b.template_id`);
      await tx.execute(sql`
        with zones as materialized (select name from pg_timezone_names),
        added as (
          insert into messages (project_id, template_id, template_version_id, template_build_id, user_id, channel,
            broadcast_id, next_attempt_at)
          select b.project_id, b.template_id, (b.pinned->>'template_version_id')::uuid, (b.pinned->>'build_id')::uuid,
            lm.user_id, t.channel, b.id,
            case when b.in_user_timezone then (b.send_at at time zone 'UTC') at time zone
              coalesce((select z.name from zones z where z.name = u.timezone), 'UTC')
            else b.send_at end
          from broadcasts b
          join message_templates t on t.project_id = b.project_id and t.id = b.template_id
          join list_members lm on lm.project_id = b.project_id and lm.list_id = b.list_id
          join users u on u.project_id = lm.project_id and u.id = lm.user_id
          where b.project_id = ${b.project_id}::uuid and b.id = ${b.id}::uuid
          on conflict do nothing
          returning 1)
        update broadcasts set state = 'sending', started_at = now(), updated_at = now(),
          recipients = (select count(*) from added) + (select count(*) from messages m
            where m.project_id = ${b.project_id}::uuid and m.broadcast_id = ${b.id}::uuid)
        where project_id = ${b.project_id}::uuid and id = ${b.id}::uuid`);
      await tx.execute(sql`select pg_notify(${MESSAGES_CHANNEL}, '')`);
      return true;
    });
    if (!started) break;
  }
  await ctx.db.execute(sql`
    update broadcasts b set state = case when b.state = 'sending' then 'done' else b.state end,
      finished_at = now(), updated_at = now()
    where b.state in ('sending', 'cancelled') and b.finished_at is null and b.started_at is not null
      and not exists (select 1 from messages m where m.project_id = b.project_id and m.broadcast_id = b.id and m.state = 'queued')`);
}
