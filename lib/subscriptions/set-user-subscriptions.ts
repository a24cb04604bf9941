import type { DbOrTx } from "@/db/client";
import type { SubscriptionSource } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import { resolveIdentifiers } from "@/lib/identity/resolve";
import type { Identifier } from "@/lib/identity/schemas";
import { applyChanges } from "./apply-changes";
import { loadUserSubscriptions } from "./load-user-subscriptions";
import { resolveGroups } from "./resolve-groups";
import type { SubscriptionChangeInput } from "./schemas";
import { inRetryingTransaction } from "@/lib/db/retry";

export type UserRef = { id: string } | { identifier: Identifier[] };

/**
 * Sets a user's state in several groups at once (client API, admin API, console). Atomic: an unknown
 * user or group is a 404 and nothing changes. Answers the user's subscriptions after the change.
 */
export async function setUserSubscriptions(db: DbOrTx, projectId: string, user: UserRef, changes: SubscriptionChangeInput[], source: SubscriptionSource, detail: Record<string, unknown> = {}) {
  return inRetryingTransaction(db, async (tx) => {
    const userId = "id" in user ? user.id : await resolveIdentifiers(tx, "user", projectId, user.identifier);
    if (!userId) throw new NotFound("No user has these identifiers.", { errors: [{ path: "identifier", message: "matches no user" }] });
    const groups = await resolveGroups(tx, projectId, changes.map((c) => c.group), (i) => `subscriptions[${i}].group`);
    const changed = await applyChanges(tx, projectId, userId, changes.map((c, i) => ({ group: groups[i]!, state: c.state })), source, detail);
    return { user_id: userId, changed, subscriptions: await loadUserSubscriptions(tx, projectId, userId) };
  });
}
