import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/sql";
import { NotFound } from "@/lib/http/errors";
import type { ProjectContext } from "@/lib/access/context";

type Entrance = { kind: string; schedule_id?: string; schedule_offset_id?: string };

/**
 * A scheduled entrance must name a schedule of this project and one of its offsets, on create and on
 * edit alike: a 404 naming the entrance's field otherwise (checked before anything is written).
 */
export async function checkScheduledEntrances(ctx: ProjectContext, input: { entrances: Entrance[] }): Promise<void> {
  for (const [i, e] of input.entrances.entries()) {
    if (e.kind !== "scheduled") continue;
    const [row] = await queryRows<{ offset: boolean }>(
      ctx.db,
      sql`
      select exists (select 1 from schedule_offsets o where o.project_id = s.project_id and o.schedule_id = s.id and o.id = ${e.schedule_offset_id}) as "offset"
      from schedules s where s.project_id = ${ctx.projectId} and s.id = ${e.schedule_id}`,
    );
    if (!row)
      throw new NotFound("No such schedule in this project.", {
        errors: [{ path: `entrances[${i}].schedule_id`, message: "no such schedule in this project" }],
      });
    if (!row.offset)
      throw new NotFound("No such offset of this schedule.", {
        errors: [{ path: `entrances[${i}].schedule_offset_id`, message: "no such offset of this schedule" }],
      });
  }
}
