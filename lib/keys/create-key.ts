import type { z } from "zod";
import { createApiKey } from "@/lib/access/api-keys";
import type { ProjectContext } from "@/lib/access/context";
import { assertMayGrant } from "@/lib/access/rank-rules";
import type { createKeyBody } from "./schemas";
import { toKeyView } from "./view";

/** Creates a key with a role at or below the caller's; the secret is returned this once only. */
export async function createKey(ctx: ProjectContext, input: z.output<typeof createKeyBody>) {
  assertMayGrant(ctx.actor, input.role, "create a key with");
  const createdBy = ctx.actor.kind === "admin" ? ctx.actor.adminId : null;
  const { key, secret } = await createApiKey(ctx.db, { projectId: ctx.projectId, name: input.name, role: input.role, createdBy });
  return { ...toKeyView(key, ctx.actor.kind === "admin" ? ctx.actor.email : null), secret };
}
