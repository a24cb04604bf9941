import { errorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";
import { inRetryingTransaction } from "@/lib/db/retry";
import { isTransaction } from "@/lib/db/transaction";
import { deferWakeToCommit, wakeIntakeAfter } from "@/lib/pipeline/wake-intake";
import type { ProjectContext } from "@/lib/access/context";
import { insertRecords, type RawRecord } from "./insert-records";
import { loadRecords, type RecordRow } from "./load-records";
import { pairKey } from "./pair-key";
import { planTargets } from "./plan-targets";
import type { RecordChange } from "./record-change";
import type { StoredIdentifier } from "./resolve";
import type { Kind } from "./tables";
import { upsertRecords } from "./upsert-records";
import { pairsAsSent } from "./write-identifiers";

export interface UpsertedRecord {
  row: RecordRow;
  identifier: StoredIdentifier[];
  created: boolean;
}

/**
 * One upsert of one user or organization. A new record is created by one statement of its own
 * (createInOneStatement, below) when it can be; otherwise upsertRecords (the one home of the identity
 * rules, see lib/identity/README.md) runs for the single item with `conflicts: "reject"`, in a transaction of its
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
    const made = await createInOneStatement(ctx, { kind, change });
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
    const made = r.newRecords.get(id);
    if (made) return { row: made.row as RecordRow, identifier: made.identifier, created: true, recorded: r.recorded };
    const [stored] = await loadRecords(inTx, { kind, ids: [id] });
    return { row: stored!.row, identifier: stored!.identifier, created: false, recorded: r.recorded };
  });
  // A call that changed nothing wrote no intake row: nothing to wake the drain for.
  if (own && result.recorded) await wakeIntakeAfter(ctx);
  return { row: result.row, identifier: result.identifier, created: result.created };
}

/**
 * The common single upsert, a new record, as one statement that is its own transaction: no BEGIN or
 * COMMIT round trips, and no pool connection held across them, so the driver can pipeline it beside
 * other requests' statements (docs/decisions/0021-a-new-record-in-one-statement.md). The statement writes
 * only when none of the change's pairs names a record, the record stays within the totals and its
 * creation hooks complete in it (insertRecords `oneStatement`); the rules applied are upsertRecords' own
 * for one new record (planTargets, insertRecords). Anything else (a known pair, a 409, a 422, a project's
 * first creation, pairs with metadata, a concurrent creator of one of the pairs) writes nothing and
 * answers undefined: the caller then runs upsertRecords in a transaction, which applies every rule.
 * The caller wakes the intake drain after it.
 */
async function createInOneStatement(
  ctx: ProjectContext,
  input: { kind: Kind; change: RecordChange },
): Promise<{ row: RawRecord; identifier: StoredIdentifier[] } | undefined> {
  const { kind, change } = input;
  // A unique violation inside a caller's transaction would abort it: this is for the pool only.
  if (isTransaction(ctx.db)) throw new Error("createInOneStatement runs as a transaction of its own");
  if (change.identifier.some((p) => p.metadata)) return undefined;
  const keys = [change.identifier.map((p) => pairKey(p.source, p.external_id))];
  const { targets } = planTargets(kind, [change], keys, new Map(), { conflicts: "reject" });
  const newTargets = [...targets.values()];
  const pairs = [...new Map(change.identifier.map((p, j) => [keys[0]![j]!, p])).values()];
  let made: Awaited<ReturnType<typeof insertRecords>>;
  try {
    made = await insertRecords(ctx, { kind, newTargets, withPairs: true, oneStatement: { pairs } });
  } catch (err) {
    // A concurrent creator of one of the pairs committed first: nothing was written, and the
    // transactional path finds the pair and updates.
    if (errorCode(err) === UNIQUE_VIOLATION) return undefined;
    throw err;
  }
  const row = made.rows[0];
  if (!row) return undefined;
  return { row, identifier: pairsAsSent(newTargets, () => row.id).stored.get(row.id) ?? [] };
}
