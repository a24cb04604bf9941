import { sql } from "drizzle-orm";
import type { UnassignInput } from "./schemas";
import { lockAssignment, resolveSubject, type SubjectKind } from "./subject";
import { withTransaction } from "@/lib/db/transaction";
import type { ProjectContext } from "@/lib/access/context";

/** Removes the subject's assignment of the named schedule with its firings; 404 when there is none. */
export async function unassignSchedule(
  ctx: ProjectContext,
  { kind, body: input }: { kind: SubjectKind; body: UnassignInput },
): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const subjectId = await resolveSubject({ ...ctx, db: tx }, { kind, identifier: input.identifier });
    const row = await lockAssignment({ ...ctx, db: tx }, { kind, subjectId, name: input.name });
    await tx.execute(sql`delete from schedule_assignments where project_id = ${ctx.projectId} and id = ${row.id}`);
  });
}
