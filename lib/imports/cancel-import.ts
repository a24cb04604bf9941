import { and, eq, inArray } from "drizzle-orm";
import { importChunks, imports } from "@/db/schema";
import { RuleBroken } from "@/lib/http/errors";
import { getImport } from "./get-import";
import { importView, type ImportView } from "./view";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Cancels an unfinished import: no further batch is applied (a batch in flight finds the state changed
 * and rolls back); batches already committed stay applied. The stored file is dropped.
 */
export async function cancelImport(ctx: ProjectContext, id: string): Promise<ImportView> {
  const [row] = await ctx.db
    .update(imports)
    .set({ state: "cancelled", finishedAt: new Date(), updatedAt: new Date(), leaseOwner: null, leaseUntil: null })
    .where(
      and(
        eq(imports.projectId, ctx.projectId),
        eq(imports.id, id),
        inArray(imports.state, ["uploading", "queued", "running"]),
      ),
    )
    .returning();
  if (!row) {
    const current = await getImport(ctx, id); // 404 when there is no such import
    throw new RuleBroken(`The import is already ${current.state}; only a queued or running import can be cancelled.`);
  }
  await ctx.db
    .delete(importChunks)
    .where(and(eq(importChunks.projectId, ctx.projectId), eq(importChunks.importId, id)));
  return importView(row);
}
