import { and, eq, sql } from "drizzle-orm";
import { broadcasts, messageTemplates } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { Conflict, NotFound, RuleBroken } from "@/lib/http/errors";

/** Journeys named in a refusal: enough to find them, never an unbounded list. */
const JOURNEYS_NAMED = 20;

/**
 * Deletes a template with its messages' log; refused (422) while a broadcast uses it, and (409, naming
 * them) while a journey's `send` step does: its entries would reach a step with nothing to send. Entries
 * still waiting at a send step for a message of this template (a step since edited to another template)
 * lose that message to the cascade: they are woken in the same transaction, so the due loop moves them on
 * with "failed: the message is gone" instead of leaving them waiting forever.
 */
export async function deleteTemplate(ctx: ProjectContext, id: string): Promise<void> {
  const [used] = await ctx.db
    .select({ id: broadcasts.id })
    .from(broadcasts)
    .where(and(eq(broadcasts.projectId, ctx.projectId), eq(broadcasts.templateId, id)))
    .limit(1);
  if (used) throw new RuleBroken("A broadcast uses this template: delete the broadcast first.");
  const journeys = await queryRows<{ id: string; name: string }>(
    ctx.db,
    sql`select id, name from journeys where project_id = ${ctx.projectId}::uuid
      and steps @> ${JSON.stringify([{ kind: "send", template_id: id }])}::jsonb
      order by name, id limit ${JOURNEYS_NAMED}`,
  );
  if (journeys.length)
    throw new Conflict(
      `A journey sends this template: change its send step first (${journeys.map((j) => JSON.stringify(j.name)).join(", ")}).`,
      { extra: { journeys } },
    );
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`
      update journey_entries e set wake_at = now()
      from messages m
      where m.project_id = ${ctx.projectId}::uuid and m.template_id = ${id}::uuid and m.journey_entry_id is not null
        and e.project_id = m.project_id and e.id = m.journey_entry_id and e.step_key = m.journey_step_key
        and m.state = 'queued' and e.state = 'waiting' and e.waiting_for ->> 'kind' = 'message'
        and e.waiting_for ->> 'message_id' = m.id::text`);
    const rows = await tx
      .delete(messageTemplates)
      .where(and(eq(messageTemplates.projectId, ctx.projectId), eq(messageTemplates.id, id)))
      .returning({ id: messageTemplates.id });
    if (!rows.length) throw new NotFound("No template with this id in this project.");
  });
}
