import { sql } from "drizzle-orm";
import type { EventRow } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { EDITED_ENTRY_COLUMNS, type EditedEntry, rekeyWaits } from "./rekey-waits";
import { MEMBER_PAGE } from "./release-waits";
import type { Step } from "./step-schema";

/**
 * Pipeline step 4, before the batch's events release waits (release-waits.ts), in its transaction: the
 * entries of the events' users (an organization event's members too) that an edit of their journey's
 * steps concerns and whose batch has not come yet (journey_edits; apply-step-edits.ts) are brought in line
 * first, so the probes, made from the steps as they are, find an entry the edit re-keyed whenever its
 * event arrives. An entry at a removed step stops waiting for the removed step's event (no probe finds it);
 * the edit's batch moves it on. Costs one lookup of the project's pending edits while there are none.
 */
export async function catchUpStepEdits(ctx: ProjectContext, batch: () => Promise<EventRow[]>): Promise<number> {
  const pending = await queryRows<{ journey_id: string; keys: string[] }>(
    ctx.db,
    sql`select journey_id, keys from journey_edits where project_id = ${ctx.projectId}::uuid`,
  );
  if (!pending.length) return 0;
  const events = await batch();
  let n = await catchUpUsers(ctx, pending, [...new Set(events.flatMap((e) => (e.userId ? [e.userId] : [])))]);
  // An organization event's members a page at a time (the primary key's order), as release-waits.ts
  // pages them: an organization of any size is bounded statements, never all its members at once.
  const orgs = new Set(events.flatMap((e) => (!e.userId && e.organizationId ? [e.organizationId] : [])));
  for (const org of orgs)
    for (let after: string | null = null; ; ) {
      const page: { user_id: string }[] = await queryRows<{ user_id: string }>(
        ctx.db,
        sql`
        select m.user_id from organization_members m
        where m.project_id = ${ctx.projectId}::uuid and m.organization_id = ${org}::uuid
          ${after ? sql`and m.user_id > ${after}::uuid` : sql``}
        order by m.user_id limit ${MEMBER_PAGE}`,
      );
      n += await catchUpUsers(
        ctx,
        pending,
        page.map((m) => m.user_id),
      );
      if (page.length < MEMBER_PAGE) break;
      after = page.at(-1)!.user_id;
    }
  return n;
}

/** These users' entries that the pending edits concern, brought in line with their journeys' steps. */
async function catchUpUsers(
  ctx: ProjectContext,
  pending: { journey_id: string; keys: string[] }[],
  users: string[],
): Promise<number> {
  if (!users.length) return 0;
  const concerned = pending.map((p) => ({ journey_id: p.journey_id, keys: p.keys }));
  // The users' entries in those journeys (journey_entries_active_idx), at a key a pending edit concerns.
  const rows = await queryRows<EditedEntry & { journey_id: string; steps: Step[] }>(
    ctx.db,
    sql`
    select ${EDITED_ENTRY_COLUMNS}, e.journey_id, j.steps
    from (select distinct c.journey_id, k.key
          from jsonb_to_recordset(${JSON.stringify(concerned)}::jsonb) as c(journey_id uuid, keys jsonb)
          cross join lateral jsonb_array_elements_text(c.keys) as k(key)) c
    cross join lateral jsonb_array_elements_text(${JSON.stringify(users)}::jsonb) as u(id)
    join journey_entries e on e.project_id = ${ctx.projectId}::uuid and e.journey_id = c.journey_id
      and e.user_id = u.id::uuid and e.exited_at is null and e.step_key = c.key
    join journeys j on j.project_id = e.project_id and j.id = e.journey_id
    where e.state = 'waiting' and e.wait_event is not null
    order by e.id
    for update of e`,
  );
  if (!rows.length) return 0;
  let n = 0;
  const byJourney = new Map<string, typeof rows>();
  for (const r of rows) {
    const list = byJourney.get(r.journey_id);
    if (list) list.push(r);
    else byJourney.set(r.journey_id, [r]);
  }
  for (const [, entries] of byJourney) {
    const steps = entries[0]!.steps;
    const kept = new Set(steps.map((s) => s.key));
    const gone = entries.filter((r) => !kept.has(r.step_key)).map((r) => r.id);
    if (gone.length) {
      await ctx.db.execute(sql`
        update journey_entries e set wait_event = null, wait_key = null
        where e.project_id = ${ctx.projectId}::uuid
          and e.id in (select jsonb_array_elements_text(${JSON.stringify(gone)}::jsonb)::uuid)`);
      n += gone.length;
    }
    n += await rekeyWaits(ctx, { steps, rows: entries });
  }
  return n;
}
