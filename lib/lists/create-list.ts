import type { DbOrTx } from "@/db/client";
import { lists } from "@/db/schema";
import { enqueue } from "@/lib/queue/enqueue";
import { ruleFacts } from "./rules";
import type { ListInput, ListView } from "./schemas";
import { toListViews } from "./view";
import { withTransaction } from "@/lib/db/transaction";

/** Creates a list; a dynamic one is then evaluated over every existing user by the worker (`lists.rebuild`). */
export async function createList(db: DbOrTx, projectId: string, input: ListInput): Promise<ListView> {
  return withTransaction(db, async (tx) => {
    const facts = input.rules ? ruleFacts(input.rules) : { eventNames: [], windowed: false };
    const [row] = await tx
      .insert(lists)
      .values({ projectId, name: input.name, kind: input.kind, rules: input.rules ?? null, ...facts })
      .returning();
    if (input.kind === "dynamic") await enqueue(tx, "lists.rebuild", [{ projectId, listId: row!.id }]);
    return (await toListViews(tx, projectId, [row!]))[0]!;
  });
}
