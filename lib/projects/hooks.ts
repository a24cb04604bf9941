import type { DbOrTx } from "@/db/client";
import type { Project } from "@/db/schema";
import { ANNIVERSARY, ensureSchedule } from "@/lib/schedules/definitions";
import { systemContext } from "@/lib/access/context";

/** Work in the transaction that creates a project: the built-in `anniversary` definition. */
export async function onProjectCreated(tx: DbOrTx, project: Project): Promise<void> {
  await ensureSchedule(systemContext(tx, project.id), ANNIVERSARY.name, ANNIVERSARY.type);
}
