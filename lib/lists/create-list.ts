import { lists } from "@/db/schema";
import { enqueue } from "@/lib/queue/enqueue";
import { checkWindowWithinRetention } from "./retention-window";
import { ruleFacts } from "./rules";
import type { ListInput, ListView } from "./schemas";
import { toListViews } from "./view";
import { withTransaction } from "@/lib/db/transaction";
import type { ProjectContext } from "@/lib/access/context";

/** Creates a list; a dynamic one is then evaluated over every existing user by the worker (`lists.rebuild`). */
export async function createList(ctx: ProjectContext, input: ListInput): Promise<ListView> {
  if (input.rules) await checkWindowWithinRetention(ctx, input.rules);
  return withTransaction(ctx.db, async (tx) => {
    const facts = input.rules ? ruleFacts(input.rules) : { eventNames: [], windowed: false };
    const [row] = await tx
      .insert(lists)
      .values({
        projectId: ctx.projectId,
        name: input.name,
        kind: input.kind,
        rules: input.rules ?? null,
        tags: input.tags,
        ...facts,
      })
      .returning();
    if (input.kind === "dynamic") await enqueue(tx, "lists.rebuild", [{ projectId: ctx.projectId, listId: row!.id }]);
    return (await toListViews({ ...ctx, db: tx }, [row!]))[0]!;
  });
}
