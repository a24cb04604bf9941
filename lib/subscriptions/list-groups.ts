import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { subscriptionGroups } from "@/db/schema";
import { toGroupView } from "./group-view";
import { loadSettings } from "./settings";

/** Every group of the project, by name: one page, bounded by MAX_GROUPS (create-group.ts), so pickers see all of them. */
export async function listGroups(db: DbOrTx, projectId: string) {
  const { defaultPolicy } = await loadSettings(db, projectId);
  const rows = await db.select().from(subscriptionGroups).where(eq(subscriptionGroups.projectId, projectId)).orderBy(asc(subscriptionGroups.name));
  return { data: rows.map((g) => toGroupView(g, defaultPolicy)), next_cursor: null };
}
