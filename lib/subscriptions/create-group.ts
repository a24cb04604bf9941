import type { DbOrTx } from "@/db/client";
import { subscriptionGroups } from "@/db/schema";
import { Conflict, RuleBroken } from "@/lib/http/errors";
import { count, eq } from "drizzle-orm";
import { toGroupView } from "./group-view";
import type { groupInput } from "./schemas";
import { loadSettings } from "./settings";
import type { z } from "zod";
import { errorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";

/** Groups are configuration, listed whole (one page, by name) by GET /subscription-groups: this bounds that page. */
export const MAX_GROUPS = 200;

export async function createGroup(db: DbOrTx, projectId: string, input: z.output<typeof groupInput>) {
  const [{ n }] = await db.select({ n: count() }).from(subscriptionGroups).where(eq(subscriptionGroups.projectId, projectId));
  if (n >= MAX_GROUPS) throw new RuleBroken(`A project holds at most ${MAX_GROUPS} subscription groups; delete one first.`);
  try {
    const [g] = await db
      .insert(subscriptionGroups)
      .values({ projectId, name: input.name, channel: input.channel, description: input.description ?? null, defaultPolicy: input.default_policy ?? null })
      .returning();
    return toGroupView(g!, (await loadSettings(db, projectId)).defaultPolicy);
  } catch (err) {
    if (errorCode(err) === UNIQUE_VIOLATION) throw new Conflict(`A subscription group named "${input.name}" already exists.`, { errors: [{ path: "name", message: "already taken" }] });
    throw err;
  }
}
