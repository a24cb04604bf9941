import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { insertDeliveriesSql } from "./message-sql";

/**
 * Pipeline step 5: decides which enabled destinations each recorded event goes to and writes one pending
 * delivery (with its message) per pair, in the transaction of the step's done-marker (lib/pipeline/run-step.ts),
 * so a killed worker or a restarted database loses no message and a retried job makes none twice.
 */
export async function decideDeliveries(ctx: ProjectContext, eventIds: string[]): Promise<number> {
  if (!eventIds.length) return 0;
  const [row] = await ctx.db.execute<{ n: number }>(
    insertDeliveriesSql(
      ctx.projectId,
      sql`select e.* from jsonb_array_elements_text(${JSON.stringify(eventIds)}::jsonb) i(id)
        cross join lateral (select * from events e where e.project_id = ${ctx.projectId}::uuid and e.id = i.id::uuid offset 0) e`,
      sql`select * from destinations where project_id = ${ctx.projectId}::uuid and enabled`,
    ),
  );
  return row?.n ?? 0;
}
