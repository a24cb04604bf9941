import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { LATE_LIMIT } from "./cycles";
import { queryRows } from "@/lib/db/sql";
import type { ProjectContext } from "@/lib/access/context";

export const BACKFILL_PAGE = Number(process.env.SCHEDULE_BACKFILL_PAGE ?? 2000);

/**
 * Makes the new offset's firing (current cycle) for every active assignment of its definition, one page
 * of assignments per transaction, in id order. The cursor is saved with each page, so a killed worker
 * resumes where it stopped and a repeated page inserts nothing twice (the firing key is
 * (assignment, offset, cycle)). Returns how many firings it made.
 */
export async function backfillOffset(
  ctx: ProjectContext<Db>,
  { offsetId, now = () => new Date() }: { offsetId: string; now?: () => Date },
): Promise<number> {
  let made = 0;
  for (;;) {
    const done = await ctx.db.transaction(async (tx) => {
      const [offset] = await queryRows<{
        schedule_id: string;
        backfill: string | null;
        backfill_cursor: string | null;
      }>(
        tx,
        sql`
        select schedule_id, backfill, backfill_cursor from schedule_offsets
        where project_id = ${ctx.projectId} and id = ${offsetId} for update`,
      );
      if (!offset || offset.backfill === null) return true;
      const at = now().toISOString();
      // Locks the page's assignments (in id order, the same order every locker uses) so a pause or a
      // firing of one of them waits for this page instead of racing it.
      const page = await queryRows<{
        last: string | null;
        n: number;
        made: number;
      }>(
        tx,
        sql`
        with page as (
          select project_id, id from schedule_assignments
          where project_id = ${ctx.projectId} and schedule_id = ${offset.schedule_id}
            and id > coalesce(${offset.backfill_cursor}::uuid, '00000000-0000-0000-0000-000000000000'::uuid)
          order by id limit ${BACKFILL_PAGE}
          for update
        ), made as (
          insert into schedule_firings (project_id, assignment_id, offset_id, cycle, fire_at, state)
          select a.project_id, a.id, o.id, a.cycle, f.fire_at,
                 case when f.fire_at < ${at}::timestamptz - ${LATE_LIMIT}::interval then 'skipped' else 'pending' end
          from page p
          join schedule_assignments a on a.project_id = p.project_id and a.id = p.id
          join schedule_offsets o on o.project_id = a.project_id and o.id = ${offsetId}
          cross join lateral (select a.occurrence_at + case o.direction when 'after' then o."offset"::interval else -o."offset"::interval end as fire_at) f
          where a.state = 'active'
          on conflict do nothing
          returning 1
        )
        select (select max(id::text) from page) as last, (select count(*) from page)::int as n, (select count(*) from made)::int as made`,
      );
      const { last, n, made: m } = page[0]!;
      made += m;
      const finished = n < BACKFILL_PAGE;
      await tx.execute(sql`
        update schedule_offsets set backfill = ${finished ? null : "queued"}, backfill_cursor = ${finished ? null : last}::uuid
        where project_id = ${ctx.projectId} and id = ${offsetId}`);
      return finished;
    });
    if (done) return made;
  }
}
