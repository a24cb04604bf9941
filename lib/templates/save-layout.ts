import { and, eq, sql } from "drizzle-orm";
import { layouts } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { errorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";
import { withTransaction } from "@/lib/db/transaction";
import { Conflict, Invalid } from "@/lib/http/errors";
import { checkSnippetUse } from "./current-snippets";
import { compileMjml, composeLayout, contentMarks, type Format, FormatError } from "./formats";
import { type LayoutView, toLayoutView } from "./layout-view";
import { compilePart } from "./liquid";
import { rebuildTemplates } from "./rebuild-templates";
import { lockAuthoring, saveVersion } from "./save-version";

/** The layout alone compiles: one `{{ content }}`, valid Liquid, and (MJML) a valid document around nothing. */
async function checkLayout(ctx: ProjectContext, f: { format: Format; body: string }) {
  const marks = contentMarks(f.body);
  if (marks !== 1)
    throw new Invalid("A layout has exactly one `{{ content }}`, where its templates go.", {
      errors: [{ path: "body", message: `${marks} found` }],
    });
  compilePart(f.body, "body");
  await checkSnippetUse(ctx, { sources: [f.body], path: "body" });
  if (f.format === "mjml")
    try {
      await compileMjml(composeLayout(f.body, "").source);
    } catch (err) {
      if (!(err instanceof FormatError)) throw err;
      const message = err.line === null ? err.message : `line ${err.line}: ${err.message}`;
      throw new Invalid(`The layout does not compile: ${message}.`, { errors: [{ path: "body", message }] });
    }
}

/**
 * Every save of a layout: it compiles alone, is a new version, and every template it wraps builds
 * again with it (or the save is refused, naming the template), in one transaction.
 */
export async function saveLayout(
  ctx: ProjectContext,
  input: { id?: string; fields: { name: string; format: Format; body: string } },
): Promise<LayoutView> {
  const f = input.fields;
  return withTransaction(ctx.db, async (tx) => {
    const c = { ...ctx, db: tx };
    await lockAuthoring(c);
    await checkLayout(c, f);
    let id = input.id;
    try {
      if (id)
        await tx
          .update(layouts)
          .set({ name: f.name, body: f.body, updatedAt: sql`clock_timestamp()` })
          .where(and(eq(layouts.projectId, ctx.projectId), eq(layouts.id, id)));
      else
        id = (
          await tx
            .insert(layouts)
            .values({ projectId: ctx.projectId, ...f })
            .returning({ id: layouts.id })
        )[0]!.id;
    } catch (err) {
      if (errorCode(err) === UNIQUE_VIOLATION)
        throw new Conflict(`A layout named "${f.name}" exists in this project.`, {
          errors: [{ path: "name", message: "already used" }],
        });
      throw err;
    }
    const { id: versionId, number } = await saveVersion(c, { kind: "layout", ownerId: id, content: { ...f } });
    const [layout] = await tx
      .update(layouts)
      .set({ versionId })
      .where(and(eq(layouts.projectId, ctx.projectId), eq(layouts.id, id)))
      .returning();
    await rebuildTemplates(c, { layout: layout! });
    return toLayoutView(layout!, number);
  });
}
