import { and, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import { admins, apiKeys } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import type { changeKeyLimitsBody } from "./schemas";
import { toKeyView } from "./view";

/** Sets a live key's budget; it applies from the key's next request. */
export async function changeKeyLimits(ctx: ProjectContext, keyId: string, input: z.output<typeof changeKeyLimitsBody>) {
  const [row] = await ctx.db
    .update(apiKeys)
    .set({ rateLimitPerSecond: input.rate_limit_per_second, rateLimitBurst: input.rate_limit_burst })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.projectId, ctx.projectId), isNull(apiKeys.revokedAt)))
    .returning();
  if (!row) throw new NotFound("No live API key with this id in this project.");
  const [creator] = row.createdBy ? await ctx.db.select({ email: admins.email }).from(admins).where(eq(admins.id, row.createdBy)) : [];
  const { secretHash: _hash, ...key } = row;
  return toKeyView(key, creator?.email ?? null);
}
