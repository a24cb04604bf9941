import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import type { Db } from "@/db/client";
import { enqueueSteps } from "./enqueue-steps";
import { inRetryingTransaction } from "@/lib/db/retry";
import { admitFanout } from "./fanout-quota";

export const FANOUT_CHUNK = Number(process.env.FANOUT_CHUNK ?? 5000);

/**
 * Delivers a `match` event to every user (organization) whose data contains the filter, one keyset chunk
 * per transaction: the chunk's events, the cursor's advance and the chunk's step jobs commit together, so
 * a killed worker resumes after the last committed chunk and no recipient gets the event twice. Each
 * recipient's event is a normal event (its own id) and runs through steps 2-4 like any other. Before the
 * first chunk the fan-out is admitted against the project's hourly quota (./fanout-quota.ts), in the same
 * transaction as that chunk. `chunk`: recipients per transaction (default FANOUT_CHUNK).
 */
export async function fanOut(ctx: ProjectContext<Db>, input: { fanoutId: string; chunk?: number }): Promise<number> {
  const { db, projectId } = ctx;
  const { fanoutId, chunk = FANOUT_CHUNK } = input;
  let total = 0;
  for (;;) {
    const step = await inRetryingTransaction(db, async (tx) => {
      const [f] = await tx.execute<{
        kind: "user" | "organization";
        name: string;
        data: Record<string, unknown>;
        received_at: string;
        occurred_at: string;
        finished: boolean;
        admitted: boolean;
      }>(sql`
        select kind, name, data, received_at::text as received_at, occurred_at::text as occurred_at, finished_at is not null as finished, planned is not null as admitted
        from event_fanouts where project_id = ${projectId} and id = ${fanoutId} for update`);
      if (!f || f.finished) return { delivered: 0, done: true };
      if (!f.admitted && !(await admitFanout({ ...ctx, db: tx }, { fanoutId, kind: f.kind })))
        return { delivered: 0, done: true };
      const table = sql.identifier(f.kind === "user" ? "users" : "organizations");
      const target = sql.identifier(f.kind === "user" ? "user_id" : "organization_id");
      const rows = await tx.execute<{ id: string; r: string }>(sql`
        insert into events (project_id, name, ${target}, data, origin, client_id, occurred_at, received_at)
        select f.project_id, f.name, r.id, f.data, 'client', f.client_id, f.occurred_at, f.received_at
        from event_fanouts f
        cross join lateral (
          select t.id from ${table} t
          where t.project_id = f.project_id and t.data @> f.match and (f.cursor is null or t.id > f.cursor)
          order by t.id limit ${chunk}) r
        where f.project_id = ${projectId} and f.id = ${fanoutId}
        returning id, ${target} as r`);
      const last = rows.reduce<string | null>((m, r) => (m === null || r.r > m ? r.r : m), null);
      const done = rows.length < chunk;
      await tx.execute(sql`
        update event_fanouts set cursor = coalesce(${last}::uuid, cursor), delivered = delivered + ${rows.length},
          finished_at = case when ${done} then now() end
        where project_id = ${projectId} and id = ${fanoutId}`);
      await enqueueSteps(
        { ...ctx, db: tx },
        {
          recorded: rows.map((r) => ({
            id: r.id,
            name: f.name,
            data: f.data,
            receivedAt: f.received_at,
            occurredAt: f.occurred_at,
          })),
        },
      );
      return { delivered: rows.length, done };
    });
    total += step.delivered;
    if (step.done) return total;
  }
}
