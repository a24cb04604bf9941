import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { lists } from "@/db/schema";
import { rebuildList } from "./rebuild-list";
import { systemContext } from "@/lib/access/context";

/** Periodic: members of time-windowed lists leave once their events age out of the window. */
export async function refreshWindowedLists(db: Db): Promise<number> {
  const rows = await db
    .select({ projectId: lists.projectId, id: lists.id })
    .from(lists)
    .where(and(eq(lists.kind, "dynamic"), eq(lists.windowed, true)));
  for (const l of rows) await rebuildList(systemContext(db, l.projectId), { listId: l.id, scope: "members" });
  return rows.length;
}
