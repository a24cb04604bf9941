import { and, count, desc, eq } from "drizzle-orm";
import { events, organizationMembers } from "@/db/schema";
import { toEventView } from "@/lib/events/view";
import { NotFound } from "@/lib/http/errors";
import { listIdentifiers } from "@/lib/identity/resolve";
import { loadSubjectAssignments } from "@/lib/schedules/view";
import { loadUserSubscriptions } from "@/lib/subscriptions/load-user-subscriptions";
import { loadUserViews } from "./view";
import type { ProjectContext } from "@/lib/access/context";

export const RECENT_EVENTS = 20;
/** Memberships shown in full; `memberships_total` says how many there are (as organizations cap members). */
export const MEMBERSHIPS_SHOWN = 200;

/** A user with identifiers, its first MEMBERSHIPS_SHOWN memberships (oldest first), subscriptions, schedule assignments and recent events. */
export async function getUser(ctx: ProjectContext, userId: string) {
  const { db, projectId } = ctx;
  const [user] = await loadUserViews(ctx, [userId]);
  if (!user) throw new NotFound("No user with this id in this project.");
  const members = await db
    .select()
    .from(organizationMembers)
    .where(and(eq(organizationMembers.projectId, projectId), eq(organizationMembers.userId, userId)))
    .orderBy(organizationMembers.createdAt)
    .limit(MEMBERSHIPS_SHOWN);
  const total =
    members.length < MEMBERSHIPS_SHOWN
      ? members.length
      : (
          await db
            .select({ n: count() })
            .from(organizationMembers)
            .where(and(eq(organizationMembers.projectId, projectId), eq(organizationMembers.userId, userId)))
        )[0]!.n;
  const orgIdentifiers = await listIdentifiers(ctx, {
    kind: "organization",
    recordIds: members.map((m) => m.organizationId),
  });
  const recent = await db
    .select()
    .from(events)
    .where(and(eq(events.projectId, projectId), eq(events.userId, userId)))
    .orderBy(desc(events.occurredAt), desc(events.id))
    .limit(RECENT_EVENTS);
  return {
    ...user,
    memberships: members.map((m) => ({
      organization_id: m.organizationId,
      identifier: orgIdentifiers.get(m.organizationId) ?? [],
      data: m.data,
      created_at: m.createdAt.toISOString(),
      updated_at: m.updatedAt.toISOString(),
    })),
    memberships_total: total,
    subscriptions: await loadUserSubscriptions(ctx, userId),
    schedules: await loadSubjectAssignments(ctx, "user_id", userId),
    recent_events: recent.map(toEventView),
  };
}
