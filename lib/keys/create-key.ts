import type { z } from "zod";
import { createApiKey } from "@/lib/access/api-keys";
import type { ProjectContext } from "@/lib/access/context";
import { assertMayGrant } from "@/lib/access/rank-rules";
import { DEFAULT_BURST, type createKeyBody } from "./schemas";
import { toKeyView } from "./view";

/** Creates a key with a role at or below the caller's; the secret is returned this once only. */
export async function createKey(ctx: ProjectContext, input: z.output<typeof createKeyBody>) {
  assertMayGrant(ctx.actor, input.role, "create a key with");
  const createdBy = ctx.actor.kind === "admin" ? ctx.actor.adminId : null;
  const { key, secret } = await createApiKey(ctx, {
    projectId: ctx.projectId,
    name: input.name,
    role: input.role,
    createdBy,
    rateLimitPerSecond: input.rate_limit_per_second,
    rateLimitBurst: input.rate_limit_burst ?? Math.max(DEFAULT_BURST, input.rate_limit_per_second),
    allowedOrigins: input.allowed_origins ?? null,
  });
  return { ...toKeyView(key, ctx.actor.kind === "admin" ? ctx.actor.email : null), secret };
}
