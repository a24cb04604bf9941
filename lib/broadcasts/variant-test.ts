import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { type AppContext, type ProjectContext, systemContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { withTransaction } from "@/lib/db/transaction";
import { MESSAGES_CHANNEL } from "@/lib/messages/notify";
import { recordLook } from "@/lib/reports/ab-decision";
import { TEST_METRIC } from "@/lib/reports/looks";
import { type Arm, verdict } from "@/lib/reports/verdict";

/*
 * A broadcast's A/B test (`variants` with `test`). When sending starts, each member's one message is of its
 * arm, drawn from the broadcast and user ids (so a restarted chunk draws the same): within `fraction`, a
 * variant by weight, sent at once; the rest are held (due at HELD_UNTIL, never claimed) for the winner.
 * At `decide_after` after the start the variant with the highest chance to beat the others (verdict.ts)
 * wins, recorded once (ab_decisions); the held messages are then given the winner's pinned version and
 * made due, a chunk per transaction. Each member has one message throughout (unique by broadcast and
 * user), so a worker killed at any point sends no one twice and leaves no one out.
 */

export const HELD_UNTIL = "9999-12-31T00:00:00Z";
export const HELD_REASON = "held for the A/B test's winner";

/** The test arm of each member of the start's `chunk` (over the CTE `b`): a variant's index, -1 (held) or null (no test). */
export const testArm = sql`
  select c.user_id, case
    when b.variants is null then null
    when (hashtextextended(b.id::text || '/' || c.user_id::text, 0) & 1048575) < (b.test->>'fraction')::float8 * 1048576 then
      (select min(w.o)::int - 1 from (
        select v.o, sum((v.x->>'weight')::int) over (order by v.o) as cum
        from jsonb_array_elements(b.variants) with ordinality as v(x, o)) w
       where (hashtextextended(b.id::text || '/' || c.user_id::text, 1) & 1048575)
         % (select sum((x->>'weight')::int) from jsonb_array_elements(b.variants) x) < w.cum)
    else -1 end::smallint as variant
  from b cross join chunk c`;

interface Tested {
  project_id: string;
  id: string;
  variants: { template_id: string; weight: number }[];
  test: { fraction: number; metric: keyof typeof TEST_METRIC; decide_after: string };
}

/** Each variant's sends and, of them, those that did the test's metric: daily rollup rows of the `variant` scope. */
export async function variantArms(ctx: ProjectContext, b: Omit<Tested, "project_id">): Promise<Arm[]> {
  const counted = TEST_METRIC[b.test.metric];
  const rows = await queryRows<{ scope_id: string; metric: string; n: number }>(
    ctx.db,
    sql`select scope_id, metric, sum(count)::bigint::int as n from message_rollups_daily
      where project_id = ${ctx.projectId}::uuid and scope = 'variant' and scope_id like ${`${b.id}/%`}
        and metric in ('sent', ${counted}) group by 1, 2`,
  );
  return b.variants.map((_, i) => {
    const of = (m: string) => Number(rows.find((r) => r.scope_id === `${b.id}/${i}` && r.metric === m)?.n ?? 0);
    return { trials: of("sent"), successes: of(counted) };
  });
}

/**
 * Decides one broadcast's test whose `decide_after` has passed since its start (once it is sending):
 * the best variant so far wins, whatever its margin, as the test's settings ask. Answers whether it did.
 */
export async function decideBroadcastTest(ctx: AppContext<Db>): Promise<boolean> {
  return withTransaction(ctx.db, async (tx) => {
    const [b] = await queryRows<Tested>(
      tx,
      sql`select b.project_id, b.id, b.variants, b.test from broadcasts b
        where b.state = 'sending' and b.test is not null
          and b.started_at + (b.test->>'decide_after')::interval <= now()
          and not exists (select 1 from ab_decisions d where d.project_id = b.project_id and d.owner_kind = 'broadcast'
            and d.owner_id = b.id and d.step_key = '' and d.decided_at is not null)
        order by b.started_at limit 1 for update skip locked`,
    );
    if (!b) return false;
    const pctx = systemContext(tx, b.project_id);
    const v = verdict(await variantArms(pctx, b));
    const best = v.arms.reduce((w, a, i) => (a.chanceToBeatOthers > v.arms[w]!.chanceToBeatOthers ? i : w), 0);
    await recordLook(pctx, {
      owner: { ownerKind: "broadcast", ownerId: b.id },
      next: { looks: 1, winner: best, chance: v.arms[best]!.chanceToBeatOthers, decided: true },
    });
    return true;
  });
}

/**
 * Gives the next `chunk` held messages of one decided broadcast the winner's template and pinned version
 * and makes them due now. Answers whether it released any.
 */
export async function releaseHeld(ctx: AppContext<Db>, input: { chunk: number }): Promise<boolean> {
  return withTransaction(ctx.db, async (tx) => {
    const [b] = await queryRows<{ project_id: string; id: string; winner: number }>(
      tx,
      sql`select b.project_id, b.id, d.winner from broadcasts b
        join ab_decisions d on d.project_id = b.project_id and d.owner_kind = 'broadcast' and d.owner_id = b.id
          and d.step_key = '' and d.winner is not null
        where b.state = 'sending' and b.test is not null
          and exists (select 1 from messages m where m.project_id = b.project_id and m.broadcast_id = b.id
            and m.state = 'queued' and m.variant = -1 and m.next_attempt_at = ${HELD_UNTIL}::timestamptz)
        limit 1`,
    );
    if (!b) return false;
    const released = await queryRows<{ id: string }>(
      tx,
      sql`
      with b as (select * from broadcasts where project_id = ${b.project_id}::uuid and id = ${b.id}::uuid),
      held as (
        select m.id from messages m
        where m.project_id = ${b.project_id}::uuid and m.broadcast_id = ${b.id}::uuid and m.state = 'queued'
          and m.variant = -1 and m.next_attempt_at = ${HELD_UNTIL}::timestamptz
        order by m.id limit ${input.chunk} for update skip locked)
      update messages m set template_id = (b.variants->${b.winner}::int->>'template_id')::uuid,
        template_version_id = (b.pinned->'variants'->${b.winner}::int->>'template_version_id')::uuid,
        template_build_id = (b.pinned->'variants'->${b.winner}::int->>'build_id')::uuid,
        next_attempt_at = now(), reason = null
      from b, held h where m.project_id = b.project_id and m.id = h.id
      returning m.id`,
    );
    if (released.length) await tx.execute(sql`select pg_notify(${MESSAGES_CHANNEL}, '')`);
    return released.length > 0;
  });
}
