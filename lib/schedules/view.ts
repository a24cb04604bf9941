import { sql } from "drizzle-orm";
import type { AssignmentView } from "./schemas";
import { queryRows, rowsById, uuidArray } from "@/lib/db/sql";
import { recordLabels } from "@/lib/identity/record-labels";
import type { ProjectContext } from "@/lib/access/context";

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

/**
 * Assignment views for the given ids, in that order: the schedule's name and type, timing, the pending
 * firings (soonest first), the next fire time and how many firings were skipped as too late.
 */
export async function loadAssignmentViews(ctx: ProjectContext, ids: string[]): Promise<AssignmentView[]> {
  if (!ids.length) return [];
  const rows = await queryRows<Record<string, any>>(
    ctx.db,
    sql`
    select a.*, s.name, s.type,
      (select coalesce(json_agg(json_build_object('offset_id', o.id, 'offset', o."offset", 'direction', o.direction, 'cycle', f.cycle, 'fire_at', f.fire_at, 'state', f.state) order by f.fire_at), '[]')
         from schedule_firings f join schedule_offsets o on o.project_id = f.project_id and o.id = f.offset_id
         where f.project_id = a.project_id and f.assignment_id = a.id and f.state = 'pending') as pending,
      (select count(*) from schedule_firings f where f.project_id = a.project_id and f.assignment_id = a.id and f.state = 'skipped')::int as skipped
    from ${rowsById("schedule_assignments", ctx.projectId, uuidArray([...new Set(ids)]), "a")}
    join schedules s on s.project_id = a.project_id and s.id = a.schedule_id`,
  );
  const byId = new Map(rows.map((r) => [r.id as string, r]));
  const users = await recordLabels(ctx, {
    kind: "user",
    ids: rows.flatMap((r) => (r.user_id ? [r.user_id as string] : [])),
  });
  const orgs = await recordLabels(ctx, {
    kind: "organization",
    ids: rows.flatMap((r) => (r.organization_id ? [r.organization_id as string] : [])),
  });
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const pending = (r.pending as any[]).map((f) => ({ ...f, fire_at: iso(f.fire_at)! }));
    const single = r.interval === null;
    return [
      {
        id: r.id,
        schedule_id: r.schedule_id,
        name: r.name,
        type: r.type,
        user_id: r.user_id,
        organization_id: r.organization_id,
        subject_label: (r.user_id ? users.get(r.user_id) : orgs.get(r.organization_id))?.label ?? null,
        state: r.state,
        pause_mode: r.pause_mode,
        interval: r.interval,
        scheduled_at: single ? iso(r.anchor) : null,
        start_at: single ? null : iso(r.anchor),
        occurrence_at: iso(r.occurrence_at)!,
        next_fire_at: pending[0]?.fire_at ?? null,
        pending,
        skipped: r.skipped,
        data: r.data,
        created_at: iso(r.created_at)!,
        updated_at: iso(r.updated_at)!,
      },
    ];
  });
}

/** Every assignment of one user or organization, by schedule name (for GET /users/{id} and /organizations/{id}). */
export async function loadSubjectAssignments(
  ctx: ProjectContext,
  { column, subjectId }: { column: "user_id" | "organization_id"; subjectId: string },
) {
  const ids = await queryRows<{ id: string }>(
    ctx.db,
    sql`
    select a.id from schedule_assignments a join schedules s on s.project_id = a.project_id and s.id = a.schedule_id
    where a.project_id = ${ctx.projectId} and a.${sql.raw(column)} = ${subjectId} order by s.name`,
  );
  return loadAssignmentViews(
    ctx,
    ids.map((r) => r.id),
  );
}
