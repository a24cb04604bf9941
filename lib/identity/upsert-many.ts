import { inRetryingTransaction } from "@/lib/db/retry";
import { bypassIntake } from "@/lib/pipeline/enqueue-steps";
import { loadRecords, type RecordRow } from "./load-records";
import type { StoredIdentifier } from "./resolve";
import type { Kind } from "./tables";
import type { RecordChange } from "./record-change";
import { upsertRecords } from "./upsert-records";
import type { ProjectContext } from "@/lib/access/context";

/** Concurrent batches sharing new identifiers lose races more often than single upserts; each retry makes progress. */
export const BATCH_ATTEMPTS = 20;

/**
 * Up to 1,000 upserts of one kind in one transaction and a constant number of statements, in order: all
 * are stored or none is. The batch's system events go straight to steps 2-4 (no intake rows:
 * lib/pipeline/enqueue-steps.ts). New records are shown from what the inserts returned; only records
 * that existed are read back. `view` shapes a row as the kind's API shows it.
 */
export async function upsertMany<V>(
  ctx: ProjectContext,
  input: {
    kind: Kind;
    changes: RecordChange[];
    view: (row: RecordRow, identifier: StoredIdentifier[]) => V;
  },
): Promise<{ views: V[]; created: number }> {
  const { kind, changes, view } = input;
  return inRetryingTransaction(
    ctx.db,
    async (tx) => {
      const inTx = { ...ctx, db: tx };
      const r = await bypassIntake(inTx, () =>
        upsertRecords(inTx, { kind, items: changes, conflicts: "reject", path: (i) => `[${i}].identifier` }),
      );
      const views = new Map([...r.newRecords].map(([id, f]) => [id, view(f.row as RecordRow, f.identifier)]));
      const existing = [...new Set(r.ids)].filter((id) => !views.has(id));
      for (const s of await loadRecords(inTx, { kind, ids: existing })) views.set(s.row.id, view(s.row, s.identifier));
      return { views: r.ids.map((id) => views.get(id)!), created: r.created.filter(Boolean).length };
    },
    BATCH_ATTEMPTS,
  );
}
