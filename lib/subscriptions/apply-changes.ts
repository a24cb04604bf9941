import { and, eq, inArray, sql } from "drizzle-orm";
import {
  subscriptionChanges,
  userSubscriptions,
  type SubscriptionGroup,
  type SubscriptionSource,
  type SubscriptionState,
} from "@/db/schema";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import { lockUser } from "./lock-user";
import type { ProjectContext } from "@/lib/access/context";

export interface GroupChange {
  group: SubscriptionGroup;
  /** null returns the user to unset. */
  state: SubscriptionState | null;
}

/**
 * The one writer of subscription states. Each real change (a no-op is skipped) updates the state row,
 * appends to the history with its source and time, and records `user.subscription.changed` on the user,
 * all in the caller's transaction. Returns how many groups changed.
 */
export async function applyChanges(
  ctx: ProjectContext,
  {
    userId,
    changes,
    source,
    detail = {},
  }: { userId: string; changes: GroupChange[]; source: SubscriptionSource; detail?: Record<string, unknown> },
): Promise<number> {
  if (!changes.length) return 0;
  await lockUser(ctx, userId);
  const current = await ctx.db
    .select({ groupId: userSubscriptions.groupId, state: userSubscriptions.state })
    .from(userSubscriptions)
    .where(statesOf(ctx, userId, changes));
  const before = new Map(current.map((r) => [r.groupId, r.state]));
  const real = changes.filter((c) => (before.get(c.group.id) ?? null) !== c.state);
  if (!real.length) return 0;

  const toSet = real.filter((c) => c.state !== null);
  const toUnset = real.filter((c) => c.state === null);
  if (toSet.length) {
    await ctx.db
      .insert(userSubscriptions)
      .values(toSet.map((c) => ({ projectId: ctx.projectId, userId, groupId: c.group.id, state: c.state!, source })))
      .onConflictDoUpdate({
        target: [userSubscriptions.projectId, userSubscriptions.userId, userSubscriptions.groupId],
        set: { state: sql`excluded.state`, source: sql`excluded.source`, updatedAt: sql`now()` },
      });
  }
  if (toUnset.length) {
    await ctx.db.delete(userSubscriptions).where(statesOf(ctx, userId, toUnset));
  }
  await ctx.db.insert(subscriptionChanges).values(
    real.map((c) => ({
      projectId: ctx.projectId,
      userId,
      groupId: c.group.id,
      channel: c.group.channel,
      previousState: before.get(c.group.id) ?? null,
      state: c.state,
      source,
      detail,
    })),
  );
  await recordSystemEvents(
    ctx,
    real.map((c) => ({
      name: "user.subscription.changed" as const,
      userId,
      data: {
        group_id: c.group.id,
        group: c.group.name,
        channel: c.group.channel,
        previous_state: before.get(c.group.id) ?? null,
        state: c.state,
        source,
      },
    })),
  );
  return real.length;
}

/** The user's stored states for the groups of `changes`. */
function statesOf(ctx: ProjectContext, userId: string, changes: GroupChange[]) {
  return and(
    eq(userSubscriptions.projectId, ctx.projectId),
    eq(userSubscriptions.userId, userId),
    inArray(
      userSubscriptions.groupId,
      changes.map((c) => c.group.id),
    ),
  );
}
