import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { users } from "@/db/schema";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import { mergeRow } from "@/lib/identity/merge";
import { attachIdentifiers, identifiersToAttach, resolveForUpdate } from "@/lib/identity/resolve";
import { onUsersCreated } from "./hooks";
import type { UserInput, UserView } from "./schemas";
import { loadUserViews, toUserView } from "./view";
import { RetryTransaction } from "@/lib/db/transaction";
import { inRetryingTransaction } from "@/lib/db/retry";

const PROFILE_FIELDS = ["email", "phone", "timezone", "locale"] as const;

export interface UpsertResult {
  id: string;
  created: boolean;
  /** The stored user when this call created it (its whole state is known without reading it back). */
  view?: UserView;
}

/**
 * Creates or updates one user inside `tx`. Any identifier that matches names the user; new identifiers
 * are added to it; identifiers naming two users are a 409 and nothing is written. A race on a new
 * identifier is settled by the unique key: the loser's transaction retries and becomes an update.
 */
export async function upsertUserIn(tx: DbOrTx, projectId: string, input: UserInput, path = "identifier"): Promise<UpsertResult> {
  const owner = await resolveForUpdate(tx, "user", projectId, input.identifier, path);
  const existing = owner?.recordId;
  const columns = Object.fromEntries(PROFILE_FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, input[f] ?? null]));

  if (!existing) {
    const [row] = await tx
      .insert(users)
      .values({ projectId, ...columns, data: input.data ?? {} })
      .returning();
    const added = await attachIdentifiers(tx, "user", projectId, row!.id, input.identifier);
    if (added !== input.identifier.length) throw new RetryTransaction();
    await recordSystemEvents(tx, projectId, [
      {
        name: "user.created",
        userId: row!.id,
        data: {
          identifier: input.identifier.map(({ source, external_id }) => ({ source, external_id })),
          email: row!.email,
          phone: row!.phone,
          timezone: row!.timezone,
          locale: row!.locale,
          data: row!.data,
        },
      },
    ]);
    await onUsersCreated(tx, projectId, [row!]);
    const identifiers = input.identifier
      .map((i) => ({ source: i.source, external_id: i.external_id, metadata: i.metadata ?? null }))
      .sort((a, b) => byCodeUnits(a.source, b.source) || byCodeUnits(a.external_id, b.external_id)); // as listIdentifiers orders them
    return { id: row!.id, created: true, view: toUserView(row!, identifiers) };
  }

  const toAttach = identifiersToAttach(input.identifier, owner!.known);
  const added = toAttach.length ? await attachIdentifiers(tx, "user", projectId, existing, toAttach) : 0;
  const changed =
    (await mergeRow(tx, {
      table: "users",
      where: sql`t.project_id = ${projectId} and t.id = ${existing}`,
      locked: true,
      columns,
      data: input.data,
    })) ?? [];
  if (added > 0) changed.unshift("identifier");
  if (changed.length) {
    await recordSystemEvents(tx, projectId, [{ name: "user.updated", userId: existing, data: { changed } }]);
  }
  return { id: existing, created: false };
}

export async function upsertUser(db: DbOrTx, projectId: string, input: UserInput): Promise<{ user: UserView; created: boolean }> {
  return inRetryingTransaction(db, async (tx) => {
    const result = await upsertUserIn(tx, projectId, input);
    const [user] = result.view ? [result.view] : await loadUserViews(tx, projectId, [result.id]);
    return { user: user!, created: result.created };
  });
}

/** Up to 1,000 upserts in one transaction, in order: all are stored or none is. */
export async function upsertUsers(db: DbOrTx, projectId: string, inputs: UserInput[]): Promise<{ users: UserView[]; created: number }> {
  return inRetryingTransaction(db, async (tx) => {
    const results: UpsertResult[] = [];
    for (const [i, input] of inputs.entries()) results.push(await upsertUserIn(tx, projectId, input, `[${i}].identifier`));
    const views = await loadUserViews(tx, projectId, [...new Set(results.map((r) => r.id))]);
    const byId = new Map(views.map((v) => [v.id, v]));
    return { users: results.map((r) => byId.get(r.id)!), created: results.filter((r) => r.created).length };
  });
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
