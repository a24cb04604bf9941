import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { lists } from "@/db/schema";
import { reevaluateList } from "./recompute-lists";
import { inRetryingTransaction } from "@/lib/db/retry";
import type { ProjectContext } from "@/lib/access/context";

const CHUNK = 2000;

/**
 * Evaluates a dynamic list over users in keyset chunks, one transaction each. `members` re-checks only
 * the current members (enough for time windows: passing time can only make a user stop matching);
 * `all` walks every user (after the list is created or its rules change). Re-running is harmless:
 * membership changes are applied as differences.
 */
export async function rebuildList(
  ctx: ProjectContext<Db>,
  { listId, scope = "all" }: { listId: string; scope?: "all" | "members" },
): Promise<void> {
  let cursor: string | null = null;
  for (;;) {
    const next: string | null = await inRetryingTransaction(ctx.db, async (tx) => {
      const [list] = await tx
        .select()
        .from(lists)
        .where(and(eq(lists.projectId, ctx.projectId), eq(lists.id, listId)));
      if (list?.kind !== "dynamic") return null;
      const source =
        scope === "all"
          ? sql`users`
          : sql`(select user_id as id, project_id from list_members where list_id = ${listId}::uuid) `;
      const ids = await tx.execute<{ id: string }>(sql`
        select id from ${source} s where s.project_id = ${ctx.projectId}::uuid and (${cursor}::uuid is null or s.id > ${cursor}::uuid)
        order by s.id limit ${CHUNK}`);
      await reevaluateList({ ...ctx, db: tx }, { list, userIds: ids.map((r) => r.id) });
      return ids.length === CHUNK ? ids[ids.length - 1]!.id : null;
    });
    if (!next) return;
    cursor = next;
  }
}
