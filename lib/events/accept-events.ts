import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { wakeIntakeAfter } from "@/lib/pipeline/wake-intake";
import type { EventInput } from "./schemas";
import { withTransaction } from "@/lib/db/transaction";
import type { ProjectContext } from "@/lib/access/context";

export const DEDUPE_WINDOW = "7 days";

/**
 * Makes a validated batch durable: repeats of a client `id` (within this batch, or accepted in the last
 * 7 days) are dropped, the rest goes into `event_intake` in one statement, and the worker is woken with
 * NOTIFY (delivered on commit). One transaction: a 202 means every event is enqueued, an error means none.
 */
/** What a batch is about, and its validated events. */
export interface AcceptInput {
  kind: "user" | "organization";
  events: EventInput[];
}

export async function acceptEvents(ctx: ProjectContext, { kind, events: input }: AcceptInput) {
  const receivedAt = new Date().toISOString();
  const seen = new Set<string>();
  const batch = input.filter((e) => e.id === undefined || (!seen.has(e.id) && seen.add(e.id)));
  // Without client ids the batch is one statement, atomic by itself: no BEGIN/COMMIT round trips.
  if (!seen.size) {
    await insertIntake(ctx.db, ctx.projectId, kind, batch, receivedAt);
    if (batch.length) await wakeIntakeAfter(ctx);
    return { accepted: input.length, duplicates: 0 };
  }
  const r = await withTransaction(ctx.db, async (tx) => {
    // Insert-or-revive: an id older than the window counts as new again. Rows come back only for new ids.
    const fresh = await tx.execute<{ client_id: string }>(sql`
      insert into event_client_ids (project_id, client_id, received_at)
      select ${ctx.projectId}::uuid, c, now() from jsonb_array_elements_text(${JSON.stringify([...seen])}::jsonb) c
      on conflict (project_id, client_id) do update set received_at = excluded.received_at
        where event_client_ids.received_at < now() - ${DEDUPE_WINDOW}::interval
      returning client_id`);
    const ok = new Set(fresh.map((r) => r.client_id));
    const kept = batch.filter((e) => e.id === undefined || ok.has(e.id));
    await insertIntake(tx, ctx.projectId, kind, kept, receivedAt);
    return { accepted: input.length, duplicates: input.length - kept.length };
  });
  if (r.duplicates < r.accepted) await wakeIntakeAfter(ctx);
  return r;
}

async function insertIntake(
  tx: DbOrTx,
  projectId: string,
  kind: "user" | "organization",
  batch: EventInput[],
  receivedAt: string,
) {
  if (!batch.length) return;
  const rows = batch.map((e) => ({
    n: e.name,
    i: e.identifier ?? null,
    m: e.match ?? null,
    d: e.data ?? {},
    c: e.id ?? null,
    t: e.timestamp ?? receivedAt,
  }));
  await tx.execute(sql`
    insert into event_intake (project_id, kind, name, identifier, match, data, client_id, occurred_at, received_at)
    select ${projectId}::uuid, ${kind}, x.n, x.i, x.m, x.d, x.c, x.t, ${receivedAt}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(n text, i jsonb, m jsonb, d jsonb, c text, t timestamptz)`);
}
