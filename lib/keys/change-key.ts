import { and, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import { admins, apiKeys } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { Invalid, NotFound } from "@/lib/http/errors";
import { ONLY_CLIENT, type changeKeyBody } from "./schemas";
import { toKeyView } from "./view";
import { forgetKeys } from "@/lib/access/key-cache";

/** Sets a live key's budget and/or allowed origins; both apply from the key's next request. */
export async function changeKey(
  ctx: ProjectContext,
  { keyId, body: input }: { keyId: string; body: z.output<typeof changeKeyBody> },
) {
  const live = and(eq(apiKeys.id, keyId), eq(apiKeys.projectId, ctx.projectId), isNull(apiKeys.revokedAt));
  if (input.allowed_origins) {
    // Only client keys may be browser keys: an editor or admin secret must never sit in a web page.
    const [key] = await ctx.db.select({ role: apiKeys.role }).from(apiKeys).where(live);
    if (key && key.role !== "client")
      throw new Invalid(`allowed_origins: ${ONLY_CLIENT}.`, {
        errors: [{ path: "allowed_origins", message: ONLY_CLIENT }],
      });
  }
  const [row] = await ctx.db
    .update(apiKeys)
    .set({
      ...(input.rate_limit_per_second !== undefined
        ? { rateLimitPerSecond: input.rate_limit_per_second, rateLimitBurst: input.rate_limit_burst }
        : {}),
      ...(input.allowed_origins !== undefined ? { allowedOrigins: input.allowed_origins } : {}),
    })
    // The role is checked again in the write, so a concurrent change cannot slip an origin list onto another role.
    .where(input.allowed_origins ? and(live, eq(apiKeys.role, "client")) : live)
    .returning();
  forgetKeys();
  if (!row) throw new NotFound("No live API key with this id in this project.");
  const [creator] = row.createdBy
    ? await ctx.db.select({ email: admins.email }).from(admins).where(eq(admins.id, row.createdBy))
    : [];
  const { secretHash: _hash, ...key } = row;
  return toKeyView(key, creator?.email ?? null);
}
