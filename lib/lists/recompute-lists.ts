import { and, arrayOverlaps, eq, sql } from "drizzle-orm";
import { lists, type EventRow, type List } from "@/db/schema";
import { applyMembership, type MembershipCause } from "./apply-membership";
import { evaluateRule } from "./evaluate-rule";
import type { Rule } from "./rules";
import type { ProjectContext } from "@/lib/access/context";

/** Re-evaluates one dynamic list for the given users and applies the difference. */
export async function reevaluateList(
  ctx: ProjectContext,
  { list, userIds, cause = { kind: "rebuild" } }: { list: List; userIds: string[]; cause?: MembershipCause },
) {
  if (!userIds.length) return { added: [], removed: [] };
  const matching = await evaluateRule(ctx, { rule: list.rules as Rule, userIds });
  return applyMembership(ctx, {
    list,
    add: [...matching],
    remove: userIds.filter((u) => !matching.has(u)),
    cause,
  });
}

/**
 * Pipeline step 3: for each dynamic list whose rules reference an event name in the batch, re-evaluate
 * the affected users: the event's user, or every member of the event's organization.
 */
export async function recomputeListsForEvents(ctx: ProjectContext, rows: EventRow[]): Promise<void> {
  const names = [...new Set(rows.map((r) => r.name))];
  const candidates = await ctx.db
    .select()
    .from(lists)
    .where(and(eq(lists.projectId, ctx.projectId), eq(lists.kind, "dynamic"), arrayOverlaps(lists.eventNames, names)))
    .orderBy(lists.id);
  for (const list of candidates) {
    // In time order, so each user's cause is the latest event of the batch that re-evaluated them.
    const hits = rows
      .filter((r) => list.eventNames.includes(r.name))
      .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
    const cause = new Map<string, string>();
    for (const r of hits) if (r.userId) cause.set(r.userId, r.id);
    const byOrg = new Map<string, string>();
    for (const r of hits) if (!r.userId && r.organizationId) byOrg.set(r.organizationId, r.id);
    if (byOrg.size) {
      // One key-prefix probe per organization: `organization_id in (ids)` could be planned as a scan of
      // the project's memberships when the statistics were stale (lib/db/probe-plans.int.test.ts).
      const members = await ctx.db.execute<{ user_id: string; organization_id: string }>(sql`
        select m.user_id, o.id as organization_id from jsonb_array_elements_text(${JSON.stringify([...byOrg.keys()])}::jsonb) as o(id)
        cross join lateral (select user_id from organization_members m
          where m.project_id = ${ctx.projectId}::uuid and m.organization_id = o.id::uuid offset 0) m`);
      for (const m of members) if (!cause.has(m.user_id)) cause.set(m.user_id, byOrg.get(m.organization_id)!);
    }
    await reevaluateList(ctx, {
      list,
      userIds: [...cause.keys()].sort(),
      cause: { kind: "event", eventByUser: cause },
    });
  }
}
