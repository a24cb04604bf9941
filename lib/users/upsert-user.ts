import { recordChange, type RecordChange } from "@/lib/identity/record-change";
import { upsertMany } from "@/lib/identity/upsert-many";
import { upsertOne } from "@/lib/identity/upsert-one";
import { upsertRecords } from "@/lib/identity/upsert-records";
import type { UserInput, UserView } from "./schemas";
import { userViewFromRow } from "./view";
import type { ProjectContext } from "@/lib/access/context";

/** The identity change an upsert body asks for: omitted fields are kept, `null` clears. */
export function userChange(input: UserInput): RecordChange {
  return recordChange("user", input);
}

/**
 * Creates or updates one user (lib/identity/README.md has the rules and where each lives): 201 when
 * created. A race on a new identifier is settled by the unique key: the loser runs again and updates.
 */
export async function upsertUser(ctx: ProjectContext, input: UserInput): Promise<{ user: UserView; created: boolean }> {
  const r = await upsertOne(ctx, { kind: "user", change: userChange(input) });
  return { user: userViewFromRow(r.row, r.identifier), created: r.created };
}

/** Up to 1,000 upserts in one transaction and a constant number of statements, in order: all are stored or none is. */
export async function upsertUsers(
  ctx: ProjectContext,
  inputs: UserInput[],
): Promise<{ users: UserView[]; created: number }> {
  const r = await upsertMany(ctx, { kind: "user", changes: inputs.map(userChange), view: userViewFromRow });
  return { users: r.views, created: r.created };
}

/** One upsert inside the caller's transaction (Segment's identify/group/alias): `path` names the identifiers in a 409. */
export async function upsertUserInTransaction(
  ctx: ProjectContext,
  input: { user: UserInput; path?: string },
): Promise<{ id: string; created: boolean }> {
  const { user, path = "identifier" } = input;
  const r = await upsertRecords(ctx, {
    kind: "user",
    items: [userChange(user)],
    conflicts: "reject",
    path: () => path,
  });
  return { id: r.ids[0]!, created: r.created[0]! };
}
