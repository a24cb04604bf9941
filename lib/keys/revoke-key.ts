import { and, eq, isNull, sql } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { forgetKeys } from "@/lib/access/key-cache";

/** Revokes a live key of the project; it stops authenticating at once. */
export async function revokeKey(ctx: ProjectContext, keyId: string): Promise<void> {
  const rows = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.projectId, ctx.projectId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  forgetKeys();
  if (!rows.length) throw new NotFound("No live API key with this id in this project.");
}
