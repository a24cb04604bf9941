import type { Project } from "@/db/schema";
import { ANNIVERSARY, ensureSchedule } from "@/lib/schedules/definitions";
import { type AppContext, systemContext } from "@/lib/access/context";

/** Work in the transaction that creates a project: the built-in `anniversary` definition. */
export async function onProjectCreated(ctx: AppContext, project: Project): Promise<void> {
  await ensureSchedule(systemContext(ctx.db, project.id), { name: ANNIVERSARY.name, type: ANNIVERSARY.type });
}
