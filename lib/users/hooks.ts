import type { DbOrTx } from "@/db/client";
import type { User } from "@/db/schema";
import { assignAnniversaries } from "@/lib/schedules/anniversary";

/**
 * Work that must happen in the same transaction that creates users: the built-in `anniversary`
 * assignment. Every path that creates users calls it, singly or in bulk.
 */
export async function onUsersCreated(tx: DbOrTx, projectId: string, users: User[]): Promise<void> {
  await assignAnniversaries(tx, "user", projectId, users);
}
