import { and, count, desc, eq, sql } from "drizzle-orm";
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
  // The user's lists and journeys, each by its (project, user) index.
  const lists = await db.execute<{ id: string; name: string; kind: "dynamic" | "static" }>(sql`
    select l.id, l.name, l.kind from list_members m join lists l on l.project_id = m.project_id and l.id = m.list_id
    where m.project_id = ${projectId}::uuid and m.user_id = ${userId}::uuid order by l.name limit ${MEMBERSHIPS_SHOWN}`);
  const journeys = await db.execute<{ id: string; name: string; active: boolean }>(sql`
    select j.id, j.name, bool_or(x.exited_at is null) as active
    from journey_entries x join journeys j on j.project_id = x.project_id and j.id = x.journey_id
    where x.project_id = ${projectId}::uuid and x.user_id = ${userId}::uuid
    group by j.id, j.name order by j.name limit ${MEMBERSHIPS_SHOWN}`);
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
    schedules: await loadSubjectAssignments(ctx, { column: "user_id", subjectId: userId }),
    recent_events: recent.map(toEventView),
    lists: [...lists],
    journeys: [...journeys],
  };
}
