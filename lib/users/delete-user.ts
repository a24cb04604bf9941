import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { events, users } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import { resolveIdentifiers } from "@/lib/identity/resolve";
import type { Identifier } from "@/lib/identity/schemas";
import { inRetryingTransaction } from "@/lib/db/retry";

/**
 * Erases a user and everything recorded against it: identifiers, memberships and other dependent rows go
 * by foreign-key cascade; events carry no foreign key (hot table) and are deleted here explicitly.
 */
export async function eraseUserById(tx: DbOrTx, projectId: string, userId: string): Promise<boolean> {
  await tx.delete(events).where(and(eq(events.projectId, projectId), eq(events.userId, userId)));
  const deleted = await tx.delete(users).where(and(eq(users.projectId, projectId), eq(users.id, userId))).returning({ id: users.id });
  return deleted.length > 0;
}

export async function deleteUser(db: DbOrTx, projectId: string, identifier: Identifier[]): Promise<void> {
  await inRetryingTransaction(db, async (tx) => {
    const id = await resolveIdentifiers(tx, "user", projectId, identifier);
    if (!id || !(await eraseUserById(tx, projectId, id))) throw new NotFound("No user has these identifiers.");
  });
}

/** Admin erase by id: 404 when the project has no such user. */
export async function eraseUser(db: DbOrTx, projectId: string, userId: string): Promise<void> {
  await inRetryingTransaction(db, async (tx) => {
    if (!(await eraseUserById(tx, projectId, userId))) throw new NotFound("No user with this id in this project.");
  });
}
