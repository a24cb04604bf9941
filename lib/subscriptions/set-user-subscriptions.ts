import type { SubscriptionSource } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import { resolveIdentifiers } from "@/lib/identity/resolve";
import type { Identifier } from "@/lib/identity/schemas";
import { applyChanges } from "./apply-changes";
import { loadUserSubscriptions } from "./load-user-subscriptions";
import { resolveGroups } from "./resolve-groups";
import type { SubscriptionChangeInput } from "./schemas";
import { inRetryingTransaction } from "@/lib/db/retry";
import type { ProjectContext } from "@/lib/access/context";

export type UserRef = { id: string } | { identifier: Identifier[] };

/**
 * Sets a user's state in several groups at once (client API, admin API, console). Atomic: an unknown
 * user or group is a 404 and nothing changes. Answers the user's subscriptions after the change.
 */
export async function setUserSubscriptions(
  ctx: ProjectContext,
  {
    user,
    changes,
    source,
    detail = {},
  }: {
    user: UserRef;
    changes: SubscriptionChangeInput[];
    source: SubscriptionSource;
    detail?: Record<string, unknown>;
  },
) {
  return inRetryingTransaction(ctx.db, async (tx) => {
    const userId =
      "id" in user
        ? user.id
        : await resolveIdentifiers({ ...ctx, db: tx }, { kind: "user", identifier: user.identifier });
    if (!userId)
      throw new NotFound("No user has these identifiers.", {
        errors: [{ path: "identifier", message: "matches no user" }],
      });
    const groups = await resolveGroups(
      { ...ctx, db: tx },
      { refs: changes.map((c) => c.group), pathOf: (i) => `subscriptions[${i}].group` },
    );
    const changed = await applyChanges(
      { ...ctx, db: tx },
      { userId, changes: changes.map((c, i) => ({ group: groups[i]!, state: c.state })), source, detail },
    );
    return { user_id: userId, changed, subscriptions: await loadUserSubscriptions({ ...ctx, db: tx }, userId) };
  });
}
