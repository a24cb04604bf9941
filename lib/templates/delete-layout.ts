import { and, eq } from "drizzle-orm";
import { layouts, messageTemplates, projects } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import { NotFound, RuleBroken } from "@/lib/http/errors";
import { lockAuthoring } from "./save-version";

/** Deletes a layout no template names and that is not the project's default (422 naming them otherwise). */
export async function deleteLayout(ctx: ProjectContext, id: string): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    await lockAuthoring({ ...ctx, db: tx });
    const users = await tx
      .select({ name: messageTemplates.name })
      .from(messageTemplates)
      .where(and(eq(messageTemplates.projectId, ctx.projectId), eq(messageTemplates.layoutId, id)))
      .limit(5);
    if (users.length)
      throw new RuleBroken(
        `Templates use this layout: ${users.map((u) => `"${u.name}"`).join(", ")}. Change them first.`,
      );
    const [p] = await tx.select({ d: projects.defaultLayoutId }).from(projects).where(eq(projects.id, ctx.projectId));
    if (p?.d === id) throw new RuleBroken("This is the project's default layout: set another (or none) first.");
    const gone = await tx
      .delete(layouts)
      .where(and(eq(layouts.projectId, ctx.projectId), eq(layouts.id, id)))
      .returning({ id: layouts.id });
    if (!gone.length) throw new NotFound("No layout with this id in this project.");
  });
}
