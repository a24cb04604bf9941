import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import type { UnassignInput } from "./schemas";
import { lockAssignment, resolveSubject, type SubjectKind } from "./subject";
import { withTransaction } from "@/lib/db/transaction";

/** Removes the subject's assignment of the named schedule with its firings; 404 when there is none. */
export async function unassignSchedule(db: DbOrTx, kind: SubjectKind, projectId: string, input: UnassignInput): Promise<void> {
  await withTransaction(db, async (tx) => {
    const subjectId = await resolveSubject(tx, kind, projectId, input.identifier);
    const row = await lockAssignment(tx, kind, projectId, subjectId, input.name);
    await tx.execute(sql`delete from schedule_assignments where project_id = ${projectId} and id = ${row.id}`);
  });
}
