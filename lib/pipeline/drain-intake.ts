import { sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import type { Identifier } from "@/lib/identity/schemas";
import { inRetryingTransaction } from "@/lib/identity/retry";
import { drainOutbox } from "@/lib/queue/outbox";
import { enqueueSteps, type Enqueue } from "./enqueue";
import { resolveOrCreateRecords } from "./resolve-records";

type IntakeRow = {
  project_id: string;
  id: string;
  kind: "user" | "organization";
  name: string;
  identifier: Identifier[] | null;
  match: Record<string, unknown> | null;
  data: Record<string, unknown>;
  client_id: string | null;
  occurred_at: string;
  received_at: string;
  recorded: boolean;
};

/**
 * Pipeline step 1 for accepted events, one batch per call, all in one transaction: claim intake rows
 * (SKIP LOCKED, so workers never share a row), resolve identifiers in bulk (creating unknown records),
 * insert into `events` keyed by the event id (ON CONFLICT DO NOTHING), register `match` fan-outs, delete
 * the claimed rows and enqueue steps 2-4. A crash anywhere rolls all of it back; the rows are claimable
 * again. Returns how many intake rows were consumed.
 */
export async function drainIntake(db: Db, enqueue: Enqueue, limit = 1000): Promise<number> {
  return inRetryingTransaction(db, async (tx) => {
    const rows = await tx.execute<IntakeRow>(sql`
      delete from event_intake where (project_id, id) in (
        select project_id, id from event_intake for update skip locked limit ${limit})
      returning project_id, id, kind, name, identifier, match, data, client_id,
        occurred_at::text as occurred_at, received_at::text as received_at, recorded`);
    const byProject = new Map<string, IntakeRow[]>();
    for (const r of rows) byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), r]);
    for (const [projectId, list] of byProject) await recordBatch(tx, enqueue, projectId, list);
    const jobs = await drainOutbox(tx, (queue, payloads) => enqueue(tx, queue, payloads as never));
    return rows.length + jobs;
  });
}

async function recordBatch(tx: Tx, enqueue: Enqueue, projectId: string, rows: IntakeRow[]) {
  const stepIds = rows.filter((r) => r.recorded).map((r) => r.id);
  const fanouts = rows.filter((r) => !r.recorded && r.match);
  const direct = rows.filter((r) => !r.recorded && r.identifier);
  const toInsert: Record<string, unknown>[] = [];
  for (const kind of ["user", "organization"] as const) {
    const mine = direct.filter((r) => r.kind === kind);
    if (!mine.length) continue;
    const owners = await resolveOrCreateRecords(tx, kind, projectId, mine.map((r) => r.identifier!));
    mine.forEach((r, i) =>
      toInsert.push({ id: r.id, n: r.name, u: kind === "user" ? owners[i] : null, o: kind === "organization" ? owners[i] : null, d: r.data, c: r.client_id, t: r.occurred_at, rt: r.received_at }),
    );
  }
  if (toInsert.length) {
    const inserted = await tx.execute<{ id: string }>(sql`
      insert into events (project_id, id, name, user_id, organization_id, data, origin, client_id, occurred_at, received_at)
      select ${projectId}::uuid, x.id, x.n, x.u, x.o, x.d, 'client', x.c, x.t, x.rt
      from jsonb_to_recordset(${JSON.stringify(toInsert)}::jsonb) as x(id uuid, n text, u uuid, o uuid, d jsonb, c text, t timestamptz, rt timestamptz)
      on conflict (project_id, id) do nothing
      returning id`);
    stepIds.push(...inserted.map((r) => r.id));
  }
  if (fanouts.length) {
    const rowsJson = fanouts.map((r) => ({ id: r.id, k: r.kind, n: r.name, m: r.match, d: r.data, c: r.client_id, t: r.occurred_at, rt: r.received_at }));
    const made = await tx.execute<{ id: string }>(sql`
      insert into event_fanouts (project_id, id, kind, name, match, data, client_id, occurred_at, received_at)
      select ${projectId}::uuid, x.id, x.k, x.n, x.m, x.d, x.c, x.t, x.rt
      from jsonb_to_recordset(${JSON.stringify(rowsJson)}::jsonb) as x(id uuid, k text, n text, m jsonb, d jsonb, c text, t timestamptz, rt timestamptz)
      on conflict (project_id, id) do nothing
      returning id`);
    if (made.length) await enqueue(tx, "pipeline.fanout", made.map((r) => ({ projectId, fanoutId: r.id })));
  }
  await enqueueSteps(tx, enqueue, projectId, stepIds);
}
