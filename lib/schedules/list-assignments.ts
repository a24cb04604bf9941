import { sql } from "drizzle-orm";
import { z } from "zod";
import { NotFound } from "@/lib/http/errors";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { listIdentifiers } from "@/lib/identity/resolve";
import { loadAssignmentViews } from "./view";
import { queryRows } from "@/lib/db/sql";
import type { ProjectContext } from "@/lib/access/context";

export const listAssignmentsQuery = paginationQuery
  .extend({ state: z.enum(["active", "paused", "fired"]).optional() })
  .meta({ id: "ListScheduleAssignmentsQuery" });

/** A schedule's assignments, newest first, with the user's or organization's identifiers and next firing. */
export async function listAssignments(
  ctx: ProjectContext,
  { scheduleId, query: q }: { scheduleId: string; query: z.output<typeof listAssignmentsQuery> },
) {
  const [schedule] = (await ctx.db.execute(
    sql`select 1 as one from schedules where project_id = ${ctx.projectId} and id = ${scheduleId}`,
  )) as unknown[];
  if (!schedule) throw new NotFound("No schedule with this id in this project.");
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const rows = await queryRows<{ id: string }>(
    ctx.db,
    sql`
    select id from schedule_assignments
    where project_id = ${ctx.projectId} and schedule_id = ${scheduleId}
      ${q.state ? sql`and state = ${q.state}` : sql``}
      ${after ? sql`and id < ${after[0]}` : sql``}
    order by id desc limit ${q.limit + 1}`,
  );
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.id]);
  const views = await loadAssignmentViews(
    ctx,
    data.map((r) => r.id),
  );
  const users = await listIdentifiers(ctx, {
    kind: "user",
    recordIds: views.flatMap((v) => (v.user_id ? [v.user_id] : [])),
  });
  const orgs = await listIdentifiers(ctx, {
    kind: "organization",
    recordIds: views.flatMap((v) => (v.organization_id ? [v.organization_id] : [])),
  });
  return {
    data: views.map((v) => ({
      ...v,
      identifier: (v.user_id ? users.get(v.user_id) : orgs.get(v.organization_id!)) ?? [],
    })),
    next_cursor,
  };
}
