import { inRetryingTransaction } from "@/lib/db/retry";
import { withStepsInHand } from "@/lib/pipeline/enqueue-steps";
import { upsertOne } from "@/lib/identity/upsert-one";
import { upsertRecords, type RecordChange } from "@/lib/identity/upsert-records";
import type { UserInput, UserView } from "./schemas";
import { loadUserViews, userViewFromRow } from "./view";
import type { ProjectContext } from "@/lib/access/context";

const PROFILE_FIELDS = ["email", "phone", "timezone", "locale"] as const;

/** The identity change an upsert body asks for: omitted fields are kept, `null` clears. */
export function userChange(input: UserInput): RecordChange {
  const columns = Object.fromEntries(
    PROFILE_FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, input[f] ?? null]),
  );
  return { identifier: input.identifier, columns, data: input.data };
}

/**
 * Creates or updates one user (lib/identity/upsert-records.ts has the rules) in one round trip
 * (lib/identity/upsert-one.ts): 201 when created. A race on a new identifier is settled by the unique
 * key: the loser's call runs again and becomes an update.
 */
export async function upsertUser(ctx: ProjectContext, input: UserInput): Promise<{ user: UserView; created: boolean }> {
  const r = await upsertOne(ctx, "user", userChange(input));
  return { user: userViewFromRow(r.row, r.identifier), created: r.created };
}

/** Up to 1,000 upserts in one transaction and a constant number of statements, in order: all are stored or none is. */
export async function upsertUsers(
  ctx: ProjectContext,
  inputs: UserInput[],
): Promise<{ users: UserView[]; created: number }> {
  const { db } = ctx;
  return inRetryingTransaction(
    db,
    async (tx) => {
      const inTx = { ...ctx, db: tx };
      // The batch's user.created/updated events go straight to steps 2-4 (no intake rows): lib/pipeline/enqueue-steps.ts.
      const r = await withStepsInHand(inTx, () =>
        upsertRecords(inTx, "user", inputs.map(userChange), { conflicts: "reject", path: (i) => `[${i}].identifier` }),
      );
      // New records are shown from what the inserts returned; only records that existed are read back.
      const views = new Map([...r.fresh].map(([id, f]) => [id, userViewFromRow(f.row, f.identifier)]));
      const existing = [...new Set(r.ids)].filter((id) => !views.has(id));
      for (const v of await loadUserViews({ ...ctx, db: tx }, existing)) views.set(v.id, v);
      return { users: r.ids.map((id) => views.get(id)!), created: r.created.filter(Boolean).length };
    },
    BATCH_ATTEMPTS,
  );
}

/** Concurrent batches sharing new identifiers lose races more often than single upserts; each retry makes progress. */
export const BATCH_ATTEMPTS = 20;

/** One upsert inside the caller's transaction (Segment's identify/group/alias): `path` names the identifiers in a 409. */
export async function upsertUserIn(
  ctx: ProjectContext,
  input: UserInput,
  path = "identifier",
): Promise<{ id: string; created: boolean }> {
  const r = await upsertRecords(ctx, "user", [userChange(input)], { conflicts: "reject", path: () => path });
  return { id: r.ids[0]!, created: r.created[0]! };
}
