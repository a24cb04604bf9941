import { and, eq } from "drizzle-orm";
import { eventCreatedRecords, events, listChanges, users } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import { dropPendingEvents } from "@/lib/identity/drop-pending-events";
import { resolveIdentifiers } from "@/lib/identity/resolve";
import type { Identifier } from "@/lib/identity/schemas";
import { inRetryingTransaction } from "@/lib/db/retry";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Erases a user and everything recorded against it: identifiers, memberships and other dependent rows go
 * by foreign-key cascade; events, list changes and event creations carry no foreign key to it and are deleted here explicitly, and
 * events accepted for it but not yet recorded are dropped (else the drain would create the user again).
 */
export async function eraseUserById(ctx: ProjectContext, userId: string): Promise<boolean> {
  const { db: tx, projectId } = ctx;
  await dropPendingEvents(ctx, { kind: "user", recordId: userId });
  await tx.delete(events).where(and(eq(events.projectId, projectId), eq(events.userId, userId)));
  await tx.delete(listChanges).where(and(eq(listChanges.projectId, projectId), eq(listChanges.userId, userId)));
  await tx
    .delete(eventCreatedRecords)
    .where(and(eq(eventCreatedRecords.projectId, projectId), eq(eventCreatedRecords.recordId, userId)));
  const deleted = await tx
    .delete(users)
    .where(and(eq(users.projectId, projectId), eq(users.id, userId)))
    .returning({ id: users.id });
  return deleted.length > 0;
}

export async function deleteUser(ctx: ProjectContext, identifier: Identifier[]): Promise<void> {
  const { db } = ctx;
  await inRetryingTransaction(db, async (tx) => {
    const id = await resolveIdentifiers({ ...ctx, db: tx }, { kind: "user", identifier });
    if (!id || !(await eraseUserById({ ...ctx, db: tx }, id))) throw new NotFound("No user has these identifiers.");
  });
}

/** Admin erase by id: 404 when the project has no such user. */
export async function eraseUser(ctx: ProjectContext, userId: string): Promise<void> {
  const { db } = ctx;
  await inRetryingTransaction(db, async (tx) => {
    if (!(await eraseUserById({ ...ctx, db: tx }, userId))) throw new NotFound("No user with this id in this project.");
  });
}
