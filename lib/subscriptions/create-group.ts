import { subscriptionGroups } from "@/db/schema";
import { Conflict, RuleBroken } from "@/lib/http/errors";
import { count, eq } from "drizzle-orm";
import { toGroupView } from "./group-view";
import type { groupInput } from "./schemas";
import { loadSettings } from "./settings";
import type { z } from "zod";
import { errorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";
import type { ProjectContext } from "@/lib/access/context";

/** Groups are configuration, listed whole (one page, by name) by GET /subscription-groups: this bounds that page. */
export const MAX_GROUPS = 200;

export async function createGroup(ctx: ProjectContext, input: z.output<typeof groupInput>) {
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(subscriptionGroups)
    .where(eq(subscriptionGroups.projectId, ctx.projectId));
  if (n >= MAX_GROUPS)
    throw new RuleBroken(`A project holds at most ${MAX_GROUPS} subscription groups; delete one first.`);
  try {
    const [g] = await ctx.db
      .insert(subscriptionGroups)
      .values({
        projectId: ctx.projectId,
        name: input.name,
        channel: input.channel,
        description: input.description ?? null,
        defaultPolicy: input.default_policy ?? null,
      })
      .returning();
    return toGroupView(g!, (await loadSettings(ctx)).defaultPolicy);
  } catch (err) {
    if (errorCode(err) === UNIQUE_VIOLATION)
      throw new Conflict(`A subscription group named "${input.name}" already exists.`, {
        errors: [{ path: "name", message: "already taken" }],
      });
    throw err;
  }
}
