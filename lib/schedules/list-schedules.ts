import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { schedules } from "@/db/schema";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { loadScheduleViews } from "./definitions";
import type { ProjectContext } from "@/lib/access/context";

export const listSchedulesQuery = paginationQuery.meta({ id: "ListSchedulesQuery" });

/** Definitions with their offsets, newest first. */
export async function listSchedules(ctx: ProjectContext, q: z.output<typeof listSchedulesQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const where = [eq(schedules.projectId, ctx.projectId)];
  if (after) where.push(lt(schedules.id, after[0]));
  const rows = await ctx.db
    .select()
    .from(schedules)
    .where(and(...where))
    .orderBy(desc(schedules.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.id]);
  return { data: await loadScheduleViews(ctx, data), next_cursor };
}
