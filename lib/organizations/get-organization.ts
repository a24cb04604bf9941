import { and, desc, eq } from "drizzle-orm";
import { events, organizationMembers } from "@/db/schema";
import { toEventView } from "@/lib/events/view";
import { NotFound } from "@/lib/http/errors";
import { listIdentifiers } from "@/lib/identity/resolve";
import { loadSubjectAssignments } from "@/lib/schedules/view";
import { loadOrganizationViews } from "./view";
import type { ProjectContext } from "@/lib/access/context";

export const MEMBERS_SHOWN = 200;
export const RECENT_EVENTS = 20;

/** An organization with identifiers, its first members (with membership data), schedules and recent events. */
export async function getOrganization(ctx: ProjectContext, organizationId: string) {
  const { db, projectId } = ctx;
  const [organization] = await loadOrganizationViews(ctx, [organizationId]);
  if (!organization) throw new NotFound("No organization with this id in this project.");
  const members = await db
    .select()
    .from(organizationMembers)
    .where(and(eq(organizationMembers.projectId, projectId), eq(organizationMembers.organizationId, organizationId)))
    .orderBy(organizationMembers.createdAt)
    .limit(MEMBERS_SHOWN);
  const userIdentifiers = await listIdentifiers(ctx, { kind: "user", recordIds: members.map((m) => m.userId) });
  const recent = await db
    .select()
    .from(events)
    .where(and(eq(events.projectId, projectId), eq(events.organizationId, organizationId)))
    .orderBy(desc(events.occurredAt), desc(events.id))
    .limit(RECENT_EVENTS);
  return {
    ...organization,
    members: members.map((m) => ({
      user_id: m.userId,
      identifier: userIdentifiers.get(m.userId) ?? [],
      data: m.data,
      created_at: m.createdAt.toISOString(),
      updated_at: m.updatedAt.toISOString(),
    })),
    schedules: await loadSubjectAssignments(ctx, { column: "organization_id", subjectId: organizationId }),
    recent_events: recent.map(toEventView),
  };
}
