import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { type AppContext, systemContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import type { Delivery } from "./deliver";
import { finishMessages } from "./finish-message";

export interface Recorded {
  projectId: string;
  id: string;
  delivery: Delivery;
}

/**
 * Writes what became of claimed messages: final states (and the journey wake-ups) per project, and the
 * ones due again later released from their lease with their new due time. One transaction.
 */
export async function recordDeliveries(ctx: AppContext<Db>, { recorded }: { recorded: Recorded[] }): Promise<void> {
  if (!recorded.length) return;
  await withTransaction(ctx.db, async (tx) => {
    const byProject = new Map<string, Recorded[]>();
    for (const r of recorded) byProject.set(r.projectId, [...(byProject.get(r.projectId) ?? []), r]);
    for (const [projectId, list] of byProject) {
      const finals = list.flatMap((r) => (r.delivery.kind === "final" ? [{ id: r.id, ...r.delivery }] : []));
      await finishMessages(systemContext(tx, projectId), finals);
      const attempted = finals.filter((f) => f.attempted).map((f) => f.id);
      if (attempted.length)
        await tx.execute(sql`update messages set attempts = attempts + 1
          where project_id = ${projectId}::uuid and id = any(${`{${attempted.join(",")}}`}::uuid[])`);
    }
    const later = recorded.flatMap((r) =>
      r.delivery.kind === "later"
        ? [
            {
              p: r.projectId,
              i: r.id,
              at: r.delivery.at.toISOString(),
              why: r.delivery.reason,
              n: r.delivery.attempted ? 1 : 0,
            },
          ]
        : [],
    );
    if (later.length)
      await tx.execute(sql`
        update messages m set next_attempt_at = l.at, lease_until = null, reason = l.why, attempts = m.attempts + l.n
        from jsonb_to_recordset(${JSON.stringify(later)}::jsonb) as l(p uuid, i uuid, at timestamptz, why text, n int)
        where m.project_id = l.p and m.id = l.i and m.state = 'queued'`);
  });
}
