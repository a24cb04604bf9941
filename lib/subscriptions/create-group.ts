import type { DbOrTx } from "@/db/client";
import { subscriptionGroups } from "@/db/schema";
import { Conflict } from "@/lib/http/errors";
import { toGroupView } from "./group-view";
import type { groupInput } from "./schemas";
import { loadSettings } from "./settings";
import type { z } from "zod";
import { errorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";

export async function createGroup(db: DbOrTx, projectId: string, input: z.output<typeof groupInput>) {
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
