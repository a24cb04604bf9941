import { and, eq, inArray } from "drizzle-orm";
import { broadcasts } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { RuleBroken } from "@/lib/http/errors";
import { getBroadcast } from "./get-broadcast";

/** Deletes a broadcast that is not sending (cancel it first); its messages stay in the log. */
export async function deleteBroadcast(ctx: ProjectContext, id: string): Promise<void> {
  const rows = await ctx.db
    .delete(broadcasts)
    .where(
      and(
        eq(broadcasts.projectId, ctx.projectId),
        eq(broadcasts.id, id),
        inArray(broadcasts.state, ["scheduled", "done", "cancelled"]),
      ),
    )
    .returning({ id: broadcasts.id });
  if (rows.length) return;
  await getBroadcast(ctx, id);
  throw new RuleBroken("A broadcast that is sending cannot be deleted: cancel it first.");
}
