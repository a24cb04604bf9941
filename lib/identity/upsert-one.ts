import { inRetryingTransaction } from "@/lib/db/retry";
import { isTransaction } from "@/lib/db/transaction";
import { deferWakeToCommit, wakeIntakeAfter } from "@/lib/pipeline/wake-intake";
import { createAlone } from "./create-alone";
import { loadRecords } from "./load-records";
import type { StoredIdentifier } from "./resolve";
import type { Kind } from "./tables";
import { upsertRecords, type RecordChange } from "./upsert-records";
import type { ProjectContext } from "@/lib/access/context";

/** A record row as stored (snake_case columns, timestamps as ISO text). */
export type RecordRow = { id: string; data: Record<string, unknown>; created_at: string; updated_at: string } & Record<
  string,
  unknown
>;

export interface UpsertedRecord {
  row: RecordRow;
  identifier: StoredIdentifier[];
  created: boolean;
}

/**
 * One upsert of one user or organization. A new record is created by one statement of its own
 * (createAlone) when it can be; otherwise upsertRecords (the one home of the identity rules, see
 * lib/identity/README.md) runs for the single item with `conflicts: "reject"`, in a transaction of its
 * own that runs again when a concurrent writer won a race on a new identifier (it then finds the pair
 * and updates).
 * A new record is answered from what was inserted; an existing one is read back in the same transaction.
 * Its system event goes to the intake (not handed over in process as a batch's are), and the drain is
 * woken after the commit when there is one (lib/pipeline/wake-intake.ts). Inside a caller's transaction
 * the retry is the caller's.
 */
export async function upsertOne(
  ctx: ProjectContext,
  input: { kind: Kind; change: RecordChange },
): Promise<UpsertedRecord> {
  const { kind, change } = input;
  // In a transaction of its own the drain is woken after the commit, not by a NOTIFY inside it: notifying
  // transactions commit one at a time (docs/decisions/0008-wake-the-intake-after-commit.md). Inside a
  // caller's transaction the NOTIFY joins it.
  const own = !isTransaction(ctx.db);
  if (own) {
    const made = await createAlone(ctx, { kind, change });
    if (made) {
      await wakeIntakeAfter(ctx);
      return { row: made.row as RecordRow, identifier: made.identifier, created: true };
    }
  }
  const result = await inRetryingTransaction(ctx.db, async (tx) => {
    const inTx = { ...ctx, db: tx };
    if (own) deferWakeToCommit(inTx);
    const r = await upsertRecords(inTx, { kind, items: [change], conflicts: "reject" });
    const id = r.ids[0]!;
    const fresh = r.fresh.get(id);
    if (fresh)
      return { row: fresh.row as RecordRow, identifier: fresh.identifier, created: true, recorded: r.recorded };
    const [stored] = await loadRecords(inTx, { kind, ids: [id] });
    return { row: stored!.row, identifier: stored!.identifier, created: false, recorded: r.recorded };
  });
  // A call that changed nothing wrote no intake row: nothing to wake the drain for.
  if (own && result.recorded) await wakeIntakeAfter(ctx);
  return { row: result.row, identifier: result.identifier, created: result.created };
}
