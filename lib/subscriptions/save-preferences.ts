import type { SubscriptionState } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import { applyChanges, type GroupChange } from "./apply-changes";
import { shownState } from "./group-view";
import { loadUserSubscriptions } from "./load-user-subscriptions";
import { resolveGroups } from "./resolve-groups";
import { readPreferencesToken } from "./tokens";
import { inRetryingTransaction } from "@/lib/db/retry";
import { type AppContext, systemContext } from "@/lib/access/context";

/**
 * The preference center's save: `choices` maps group ids to the state the person picked. Only groups
 * whose picked state differs from what they currently get are written, so saving an untouched form
 * leaves unset states unset. `all` applies one state to every group.
 */
export async function savePreferences(
  ctx: AppContext,
  {
    token,
    choices,
    all,
  }: { token: string; choices: Map<string, SubscriptionState>; all?: SubscriptionState | undefined },
) {
  const claim = readPreferencesToken(token);
  if (!claim) throw new NotFound("This preferences link is not valid.");
  return inRetryingTransaction(ctx.db, async (tx) => {
    // The signed link is the credential: the person acts through the service, so the actor is the system.
    const project = systemContext(tx, claim.projectId);
    const current = await loadUserSubscriptions(project, claim.userId);
    const wanted = current.flatMap((s) => {
      const pick = all ?? choices.get(s.group_id);
      return pick && pick !== shownState(s) ? [{ id: s.group_id, state: pick }] : [];
    });
    if (!wanted.length) return 0;
    const groups = await resolveGroups(project, {
      refs: wanted.map((w) => w.id),
      pathOf: (i) => `group:${wanted[i]!.id}`,
    });
    const changes: GroupChange[] = groups.map((group, i) => ({ group, state: wanted[i]!.state }));
    return applyChanges(project, { userId: claim.userId, changes, source: "preference_center" });
  });
}
