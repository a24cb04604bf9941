import { errorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";
import { isTransaction } from "@/lib/db/transaction";
import type { ProjectContext } from "@/lib/access/context";
import { insertRecords, type RawRecord } from "./insert-records";
import { pairKey } from "./pair-key";
import { planTargets } from "./plan-targets";
import type { StoredIdentifier } from "./resolve";
import type { Kind } from "./tables";
import type { RecordChange } from "./upsert-records";
import { pairsAsSent } from "./write-identifiers";

/**
 * The common single upsert, a new record, as one statement that is its own transaction: no BEGIN or
 * COMMIT round trips, and no pool connection held across them, so the driver can pipeline it beside
 * other requests' statements (docs/decisions/0021-a-new-record-in-one-statement.md). The statement writes
 * only when none of the change's pairs names a record, the record stays within the totals and its
 * creation hooks complete in it (insertRecords `alone`); the rules applied are upsertRecords' own for
 * one new record (planTargets, insertRecords). Anything else (a known pair, a 409, a 422, a project's
 * first creation, pairs with metadata, a concurrent creator of one of the pairs) writes nothing and
 * answers undefined: the caller then runs upsertRecords in a transaction, which applies every rule.
 * The caller wakes the intake drain after it.
 */
export async function createAlone(
  ctx: ProjectContext,
  input: { kind: Kind; change: RecordChange },
): Promise<{ row: RawRecord; identifier: StoredIdentifier[] } | undefined> {
  const { kind, change } = input;
  // A unique violation inside a caller's transaction would abort it: this is for the pool only.
  if (isTransaction(ctx.db)) throw new Error("createAlone runs as a transaction of its own");
  if (change.identifier.some((p) => p.metadata)) return undefined;
  const keys = [change.identifier.map((p) => pairKey(p.source, p.external_id))];
  const { targets } = planTargets(kind, [change], keys, new Map(), { conflicts: "reject" });
  const fresh = [...targets.values()];
  const pairs = [...new Map(change.identifier.map((p, j) => [keys[0]![j]!, p])).values()];
  let made: Awaited<ReturnType<typeof insertRecords>>;
  try {
    made = await insertRecords(ctx, { kind, fresh, withPairs: true, alone: { pairs } });
  } catch (err) {
    // A concurrent creator of one of the pairs committed first: nothing was written, and the
    // transactional path finds the pair and updates.
    if (errorCode(err) === UNIQUE_VIOLATION) return undefined;
    throw err;
  }
  const row = made.rows[0];
  if (!row) return undefined;
  return { row, identifier: pairsAsSent(fresh, () => row.id).stored.get(row.id) ?? [] };
}
