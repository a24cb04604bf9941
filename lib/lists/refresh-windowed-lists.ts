import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { lists } from "@/db/schema";
import { rebuildList } from "./rebuild-list";
import { type AppContext, systemContext } from "@/lib/access/context";

/** Periodic: members of time-windowed lists leave once their events age out of the window. */
export async function refreshWindowedLists(ctx: AppContext<Db>): Promise<number> {
  const rows = await ctx.db
    .select({ projectId: lists.projectId, id: lists.id })
    .from(lists)
    .where(and(eq(lists.kind, "dynamic"), eq(lists.windowed, true)));
  for (const l of rows) await rebuildList(systemContext(ctx.db, l.projectId), { listId: l.id, scope: "members" });
  return rows.length;
}
