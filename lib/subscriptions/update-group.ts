import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { subscriptionGroups } from "@/db/schema";
import { Conflict, NotFound } from "@/lib/http/errors";
import { toGroupView } from "./group-view";
import type { groupPatch } from "./schemas";
import { loadSettings } from "./settings";
import { errorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";

export async function updateGroup(db: DbOrTx, projectId: string, groupId: string, patch: z.output<typeof groupPatch>) {
  try {
    const [g] = await db
      .update(subscriptionGroups)
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.channel !== undefined ? { channel: patch.channel } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.default_policy !== undefined ? { defaultPolicy: patch.default_policy } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(subscriptionGroups.projectId, projectId), eq(subscriptionGroups.id, groupId)))
      .returning();
    if (!g) throw new NotFound("No subscription group with this id in this project.");
    return toGroupView(g, (await loadSettings(db, projectId)).defaultPolicy);
  } catch (err) {
    if (errorCode(err) === UNIQUE_VIOLATION) throw new Conflict(`A subscription group named "${patch.name}" already exists.`, { errors: [{ path: "name", message: "already taken" }] });
    throw err;
  }
}
