import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { events, organizationMembers } from "@/db/schema";
import { toEventView } from "@/lib/events/view";
import { NotFound } from "@/lib/http/errors";
import { listIdentifiers } from "@/lib/identity/resolve";
import { loadSubjectAssignments } from "@/lib/schedules/view";
import { loadUserSubscriptions } from "@/lib/subscriptions/load-user-subscriptions";
import { loadUserViews } from "./view";

export const RECENT_EVENTS = 20;

/** A user with identifiers, memberships, subscriptions, schedule assignments and recent events. */
export async function getUser(db: DbOrTx, projectId: string, userId: string) {
  const [user] = await loadUserViews(db, projectId, [userId]);
  if (!user) throw new NotFound("No user with this id in this project.");
  const members = await db
    .select()
    .from(organizationMembers)
    .where(and(eq(organizationMembers.projectId, projectId), eq(organizationMembers.userId, userId)))
    .orderBy(organizationMembers.createdAt);
  const orgIdentifiers = await listIdentifiers(db, "organization", projectId, members.map((m) => m.organizationId));
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
    subscriptions: await loadUserSubscriptions(db, projectId, userId),
    schedules: await loadSubjectAssignments(db, projectId, "user_id", userId),
    recent_events: recent.map(toEventView),
  };
}
