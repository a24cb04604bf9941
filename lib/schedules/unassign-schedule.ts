import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { withTransaction } from "@/lib/access/context";
import type { UnassignInput } from "./schemas";
import { lockAssignment, resolveSubject, type SubjectKind } from "./subject";

/** Removes the subject's assignment of the named schedule with its firings; 404 when there is none. */
export async function unassignSchedule(db: Tx, kind: SubjectKind, projectId: string, input: UnassignInput): Promise<void> {
  await withTransaction(db, async (tx) => {
    const subjectId = await resolveSubject(tx, kind, projectId, input.identifier);
    const row = await lockAssignment(tx, kind, projectId, subjectId, input.name);
    await tx.execute(sql`delete from schedule_assignments where project_id = ${projectId} and id = ${row.id}`);
  });
}
