import { and, eq } from "drizzle-orm";
import { snippets } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import { NotFound } from "@/lib/http/errors";
import { checkSnippetSet } from "./check-snippet-set";
import { currentSnippets } from "./current-snippets";
import { lockAuthoring } from "./save-version";

/** Deletes a snippet nothing renders (a 400 names the template, layout or snippet that does). */
export async function deleteSnippet(ctx: ProjectContext, id: string): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const c = { ...ctx, db: tx };
    await lockAuthoring(c);
    const [s] = await tx
      .select()
      .from(snippets)
      .where(and(eq(snippets.projectId, ctx.projectId), eq(snippets.id, id)));
    if (!s) throw new NotFound("No snippet with this id in this project.");
    const bodies = await currentSnippets(c);
    bodies.delete(s.name);
    await checkSnippetSet(c, { bodies });
    await tx.delete(snippets).where(and(eq(snippets.projectId, ctx.projectId), eq(snippets.id, id)));
  });
}
