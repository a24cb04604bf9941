import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { subscriptionGroups } from "@/db/schema";
import { Conflict, NotFound } from "@/lib/http/errors";
import { toGroupView } from "./group-view";
import type { groupPatch } from "./schemas";
import { loadSettings } from "./settings";
import { errorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";
import type { ProjectContext } from "@/lib/access/context";

export async function updateGroup(
  ctx: ProjectContext,
  { groupId, patch }: { groupId: string; patch: z.output<typeof groupPatch> },
) {
  try {
    const [g] = await ctx.db
      .update(subscriptionGroups)
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.channel !== undefined ? { channel: patch.channel } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.default_policy !== undefined ? { defaultPolicy: patch.default_policy } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(subscriptionGroups.projectId, ctx.projectId), eq(subscriptionGroups.id, groupId)))
      .returning();
    if (!g) throw new NotFound("No subscription group with this id in this project.");
    return toGroupView(g, (await loadSettings(ctx)).defaultPolicy);
  } catch (err) {
    if (errorCode(err) === UNIQUE_VIOLATION)
      throw new Conflict(`A subscription group named "${patch.name}" already exists.`, {
        errors: [{ path: "name", message: "already taken" }],
      });
    throw err;
  }
}
