import { and, eq } from "drizzle-orm";
import { lists, type List } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import type { ListView } from "./schemas";
import { toListViews } from "./view";
import type { ProjectContext } from "@/lib/access/context";

export async function findList(
  ctx: ProjectContext,
  { id, lock = false }: { id: string; lock?: boolean },
): Promise<List> {
  const q = ctx.db
    .select()
    .from(lists)
    .where(and(eq(lists.projectId, ctx.projectId), eq(lists.id, id)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new NotFound("No list with this id in this project.");
  return row;
}

export async function getList(ctx: ProjectContext, id: string): Promise<ListView> {
  return (await toListViews(ctx, [await findList(ctx, { id })]))[0]!;
}
