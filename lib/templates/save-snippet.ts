import { and, eq, sql } from "drizzle-orm";
import { snippets } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { errorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";
import { withTransaction } from "@/lib/db/transaction";
import { Conflict, NotFound } from "@/lib/http/errors";
import { checkSnippetSet } from "./check-snippet-set";
import { currentSnippets } from "./current-snippets";
import { toSnippetView } from "./layout-view";
import { compilePart } from "./liquid";
import { lockAuthoring, saveVersion } from "./save-version";

/**
 * Every save of a snippet, new or changed: it parses, the project's snippets stay free of cycles and
 * within the nesting limit, and every template and layout still finds what it renders (a rename with a
 * user left is refused, naming it); then the row and a new version, under the authoring lock.
 */
export async function saveSnippet(
  ctx: ProjectContext,
  input: { id?: string; fields: { name?: string; body?: string } },
) {
  return withTransaction(ctx.db, async (tx) => {
    const c = { ...ctx, db: tx };
    await lockAuthoring(c);
    const [old] = input.id
      ? await tx
          .select()
          .from(snippets)
          .where(and(eq(snippets.projectId, ctx.projectId), eq(snippets.id, input.id)))
      : [];
    if (input.id && !old) throw new NotFound("No snippet with this id in this project.");
    const name = input.fields.name ?? old!.name;
    const body = input.fields.body ?? old?.body ?? "";
    compilePart(body, "body");
    const bodies = await currentSnippets(c);
    if (old) bodies.delete(old.name);
    else if (bodies.has(name)) throw taken(name);
    bodies.set(name, body);
    await checkSnippetSet(c, { bodies });
    let id = input.id;
    try {
      if (id)
        await tx
          .update(snippets)
          .set({ name, body, updatedAt: sql`clock_timestamp()` })
          .where(and(eq(snippets.projectId, ctx.projectId), eq(snippets.id, id)));
      else id = (await tx.insert(snippets).values({ projectId: ctx.projectId, name, body }).returning())[0]!.id;
    } catch (err) {
      if (errorCode(err) === UNIQUE_VIOLATION) throw taken(name);
      throw err;
    }
    const v = await saveVersion(c, { kind: "snippet", ownerId: id, content: { name, body } });
    const [row] = await tx
      .update(snippets)
      .set({ versionId: v.id })
      .where(and(eq(snippets.projectId, ctx.projectId), eq(snippets.id, id)))
      .returning();
    return toSnippetView(row!, v.number);
  });
}

const taken = (name: string) =>
  new Conflict(`A snippet named "${name}" exists in this project.`, {
    errors: [{ path: "name", message: "already used" }],
  });
