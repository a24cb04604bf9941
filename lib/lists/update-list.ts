import { and, eq, sql } from "drizzle-orm";
import { lists } from "@/db/schema";
import { RuleBroken } from "@/lib/http/errors";
import { enqueue } from "@/lib/queue/enqueue";
import { findList } from "./get-list";
import { checkWindowWithinRetention } from "./retention-window";
import { ruleFacts } from "./rules";
import type { ListPatch, ListView } from "./schemas";
import { toListViews } from "./view";
import { withTransaction } from "@/lib/db/transaction";
import type { ProjectContext } from "@/lib/access/context";

/** Renames a list or replaces a dynamic list's rules (then re-evaluated over every user). */
export async function updateList(
  ctx: ProjectContext,
  { id, patch }: { id: string; patch: ListPatch },
): Promise<ListView> {
  return withTransaction(ctx.db, async (tx) => {
    const list = await findList({ ...ctx, db: tx }, { id, lock: true });
    if (patch.rules && list.kind === "static")
      throw new RuleBroken("A static list has no rules; add and remove its users instead.");
    if (patch.rules) await checkWindowWithinRetention({ ...ctx, db: tx }, patch.rules);
    const [row] = await tx
      .update(lists)
      .set({
        ...(patch.name ? { name: patch.name } : {}),
        ...(patch.rules ? { rules: patch.rules, ...ruleFacts(patch.rules) } : {}),
        ...(patch.tags ? { tags: patch.tags } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(lists.projectId, ctx.projectId), eq(lists.id, id)))
      .returning();
    if (patch.rules) await enqueue(tx, "lists.rebuild", [{ projectId: ctx.projectId, listId: id }]);
    return (await toListViews({ ...ctx, db: tx }, [row!]))[0]!;
  });
}
