import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { lists } from "@/db/schema";
import { RuleBroken } from "@/lib/http/errors";
import { enqueue } from "@/lib/queue/enqueue";
import { findList } from "./get-list";
import { ruleFacts } from "./rules";
import type { ListPatch, ListView } from "./schemas";
import { toListViews } from "./view";
import { withTransaction } from "@/lib/db/transaction";

/** Renames a list or replaces a dynamic list's rules (then re-evaluated over every user). */
export async function updateList(db: DbOrTx, projectId: string, id: string, patch: ListPatch): Promise<ListView> {
  return withTransaction(db, async (tx) => {
    const list = await findList(tx, projectId, id, true);
    if (patch.rules && list.kind === "static") throw new RuleBroken("A static list has no rules; add and remove its users instead.");
    const [row] = await tx
      .update(lists)
      .set({ ...(patch.name ? { name: patch.name } : {}), ...(patch.rules ? { rules: patch.rules, ...ruleFacts(patch.rules) } : {}), updatedAt: sql`now()` })
      .where(and(eq(lists.projectId, projectId), eq(lists.id, id)))
      .returning();
    if (patch.rules) await enqueue(tx, "lists.rebuild", [{ projectId, listId: id }]);
    return (await toListViews(tx, projectId, [row!]))[0]!;
  });
}
