import { and, arrayOverlaps, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { lists, type EventRow, type List } from "@/db/schema";
import { applyMembership } from "./apply-membership";
import { evaluateRule } from "./evaluate-rule";
import type { Rule } from "./rules";

/** Re-evaluates one dynamic list for the given users and applies the difference. */
export async function reevaluateList(tx: DbOrTx, projectId: string, list: List, userIds: string[]) {
  if (!userIds.length) return { added: [], removed: [] };
  const matching = await evaluateRule(tx, projectId, list.rules as Rule, userIds);
  return applyMembership(tx, projectId, list, [...matching], userIds.filter((u) => !matching.has(u)));
}

/**
 * Pipeline step 3: for each dynamic list whose rules reference an event name in the batch, re-evaluate
 * the affected users: the event's user, or every member of the event's organization.
 */
export async function recomputeListsForEvents(tx: DbOrTx, projectId: string, rows: EventRow[]): Promise<void> {
  const names = [...new Set(rows.map((r) => r.name))];
  const candidates = await tx
    .select()
    .from(lists)
    .where(and(eq(lists.projectId, projectId), eq(lists.kind, "dynamic"), arrayOverlaps(lists.eventNames, names)))
    .orderBy(lists.id);
  for (const list of candidates) {
    const hits = rows.filter((r) => list.eventNames.includes(r.name));
    const userIds = new Set(hits.flatMap((r) => (r.userId ? [r.userId] : [])));
    const orgIds = [...new Set(hits.filter((r) => !r.userId && r.organizationId).map((r) => r.organizationId!))];
    if (orgIds.length) {
      const members = await tx.execute<{ user_id: string }>(sql`
        select user_id from organization_members where project_id = ${projectId}::uuid
          and organization_id in (select jsonb_array_elements_text(${JSON.stringify(orgIds)}::jsonb)::uuid)`);
      for (const m of members) userIds.add(m.user_id);
    }
    await reevaluateList(tx, projectId, list, [...userIds].sort());
  }
}
