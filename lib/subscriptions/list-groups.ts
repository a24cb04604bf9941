import { asc, eq } from "drizzle-orm";
import { subscriptionGroups } from "@/db/schema";
import { toGroupView } from "./group-view";
import { loadSettings } from "./settings";
import type { ProjectContext } from "@/lib/access/context";

/** Every group of the project, by name: one page, bounded by MAX_GROUPS (create-group.ts), so pickers see all of them. */
export async function listGroups(ctx: ProjectContext) {
  const { defaultPolicy } = await loadSettings(ctx);
  const rows = await ctx.db
    .select()
    .from(subscriptionGroups)
    .where(eq(subscriptionGroups.projectId, ctx.projectId))
    .orderBy(asc(subscriptionGroups.name));
  return { data: rows.map((g) => toGroupView(g, defaultPolicy)), next_cursor: null };
}
